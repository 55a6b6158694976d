/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.policy.poddisruptionbudget;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * policy/v1 PodDisruptionBudget, as kube's {@code pkg/registry/policy/poddisruptionbudget}:
 * generation bumped by spec changes and {@code ValidatePodDisruptionBudget} with its status
 * (kube's {@code pkg/apis/policy/validation}).
 */
public final class PodDisruptionBudgetStrategy {
  private static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");

  private PodDisruptionBudgetStrategy() {}

  /** The PodDisruptionBudget's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(PodDisruptionBudgetStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue pdb, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(pdb, "spec");
    Value min = spec == null ? null : spec.getOrNull("minAvailable");
    Value max = spec == null ? null : spec.getOrNull("maxUnavailable");
    if (min != null && max != null) {
      errs.add(FieldError.invalid("spec", spec, "minAvailable and maxUnavailable cannot be both set"));
    }
    if (min != null) {
      GroupValidation.positiveIntOrPercentMax100(errs, min, "spec.minAvailable");
    }
    if (max != null) {
      GroupValidation.positiveIntOrPercentMax100(errs, max, "spec.maxUnavailable");
    }
    boolean allowInvalid = old.map(o -> KubeValidation.hasInvalidLabelValue(
        Nested.getOrNull(o, "spec", "selector"))).orElse(false);
    KubeValidation.labelSelector(spec == null ? null : spec.getOrNull("selector"),
        "spec.selector", allowInvalid, errs);
    if (spec != null && spec.getOrNull("unhealthyPodEvictionPolicy") instanceof StringValue p
        && !EVICTION_POLICIES.contains(p.value())) {
      errs.add(FieldError.notSupported("spec.unhealthyPodEvictionPolicy", p, EVICTION_POLICIES));
    }
    MapValue status = Nested.mapOrNull(pdb, "status");
    for (String f : List.of("disruptionsAllowed", "currentHealthy", "desiredHealthy",
        "expectedPods")) {
      KubeValidation.nonNegative(Nested.getOrNull(status, f), "status." + f, errs);
    }
    return errs;
  }
}
