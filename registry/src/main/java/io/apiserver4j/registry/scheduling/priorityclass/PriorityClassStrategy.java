/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.scheduling.priorityclass;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * scheduling.k8s.io/v1 PriorityClass, as kube's {@code pkg/registry/scheduling/priorityclass}
 * with {@code SetDefaults_PriorityClass} and {@code ValidatePriorityClass}/
 * {@code ValidatePriorityClassUpdate} (reserved system classes, value bounds, immutable value
 * and preemption policy).
 */
public final class PriorityClassStrategy {
  /** kube's HighestUserDefinablePriority. */
  private static final long HIGHEST_USER_PRIORITY = 1_000_000_000L;
  // kube's system priority classes: name, value (globalDefault false for both)
  private static final Map<String, Long> SYSTEM_CLASSES = Map.of(
      "system-node-critical", 2_000_001_000L, "system-cluster-critical", 2_000_000_000L);

  private PriorityClassStrategy() {}

  /** The PriorityClass's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> o.getOrNull("preemptionPolicy") == null
            ? o.with("preemptionPolicy", Value.of("PreemptLowerPriority")) : o)
        .validator(PriorityClassStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue pc, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    long value = pc.getOrNull("value") instanceof IntegerValue i ? i.value() : 0;
    if (old.isPresent()) {
      long before = old.get().getOrNull("value") instanceof IntegerValue i ? i.value() : 0;
      if (value != before) {
        errs.add(FieldError.forbidden("value", "may not be changed in an update."));
      }
      KubeValidation.immutable(pc.getOrNull("preemptionPolicy"),
          old.get().getOrNull("preemptionPolicy"), "preemptionPolicy", errs);
      return errs;
    }
    String name = Meta.metaString(pc, "name");
    boolean globalDefault = pc.getOrNull("globalDefault") instanceof BooleanValue b && b.value();
    if (name.startsWith("system-")) {
      String problem = null;
      Long want = SYSTEM_CLASSES.get(name);
      if (want == null) {
        problem = name + " is not a known system priority class";
      } else if (want != value) {
        problem = "value of " + name + " PriorityClass must be " + want;
      } else if (globalDefault) {
        problem = "globalDefault of " + name + " PriorityClass must be false";
      }
      if (problem != null) {
        errs.add(FieldError.forbidden("metadata.name", "priority class names with 'system-'"
            + " prefix are reserved for system use only. error: " + problem));
      }
    } else if (value > HIGHEST_USER_PRIORITY) {
      errs.add(FieldError.forbidden("value", "maximum allowed value of a user defined priority is "
          + HIGHEST_USER_PRIORITY));
    }
    if (pc.getOrNull("preemptionPolicy") instanceof StringValue p) {
      if (p.value().isEmpty()) {
        errs.add(FieldError.required("preemptionPolicy", ""));
      } else if (!p.value().equals("PreemptLowerPriority") && !p.value().equals("Never")) {
        errs.add(FieldError.notSupported("preemptionPolicy", p,
            List.of("PreemptLowerPriority", "Never")));
      }
    }
    return errs;
  }
}
