/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.csidriver;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * kube's pkg/registry/storage/csidriver strategy: {@code SetDefaults_CSIDriver} and
 * {@code ValidateCSIDriver} (and its update form: attachRequired and the lifecycle modes never
 * change); the generation follows the spec.
 */
public final class CsiDriverStrategy {
  private CsiDriverStrategy() {}

  /** The CSIDriver strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(CsiDriverStrategy::defaultCsiDriver)
        .validator(CsiDriverStrategy::validateCsiDriver)
        .build();
  }

  /** kube's {@code SetDefaults_CSIDriver}. */
  private static MapValue defaultCsiDriver(MapValue o) {
    MapValue r = Nested.setDefault(o, MapValue.empty(), "spec");
    r = Nested.setDefault(r, Value.of(true), "spec", "attachRequired");
    r = Nested.setDefault(r, Value.of(false), "spec", "podInfoOnMount");
    r = Nested.setDefault(r, Value.of(false), "spec", "storageCapacity");
    r = Nested.setDefault(r, Value.of("ReadWriteOnceWithFSType"), "spec", "fsGroupPolicy");
    if (strings(r, "spec", "volumeLifecycleModes").isEmpty()) {
      r = Nested.set(r, GroupRules.stringList("Persistent"), "spec", "volumeLifecycleModes");
    }
    r = Nested.setDefault(r, Value.of(false), "spec", "requiresRepublish");
    return Nested.setDefault(r, Value.of(false), "spec", "seLinuxMount");
  }

  private static List<FieldError> validateCsiDriver(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    // kube's field name is "attachedRequired"
    for (String[] f : new String[][] {{"attachRequired", "attachedRequired"},
        {"podInfoOnMount", "podInfoOnMount"}, {"storageCapacity", "storageCapacity"},
        {"seLinuxMount", "seLinuxMount"}}) {
      if (!present(spec, f[0])) {
        errs.add(FieldError.required("spec." + f[1], ""));
      }
    }
    String policy = str(spec, "fsGroupPolicy");
    List<String> policies = List.of("File", "None", "ReadWriteOnceWithFSType");
    if (present(spec, "fsGroupPolicy") && !policies.contains(policy)) {
      errs.add(FieldError.notSupported("spec.fsGroupPolicy", Value.of(policy), policies));
    }
    Set<String> audiences = new HashSet<>();
    List<MapValue> requests = maps(spec, "tokenRequests");
    for (int i = 0; i < requests.size(); i++) {
      String at = "spec.tokenRequests[" + i + "]";
      String audience = str(requests.get(i), "audience");
      if (!audiences.add(audience)) {
        errs.add(FieldError.duplicate(at + ".audience", Value.of(audience)));
        continue;
      }
      Optional<Long> exp = GroupRules.integer(requests.get(i), "expirationSeconds");
      if (exp.isPresent() && exp.get() < 600) {
        errs.add(FieldError.invalid(at + ".expirationSeconds", Value.of(exp.get()),
            "may not specify a duration less than 10 minutes"));
      }
      if (exp.isPresent() && exp.get() > (1L << 32)) {
        errs.add(FieldError.invalid(at + ".expirationSeconds", Value.of(exp.get()),
            "may not specify a duration larger than 2^32 seconds"));
      }
    }
    for (String mode : strings(spec, "volumeLifecycleModes")) {
      if (!mode.equals("Persistent") && !mode.equals("Ephemeral")) {
        errs.add(FieldError.notSupported("spec.volumeLifecycleModes", Value.of(mode),
            List.of("Persistent", "Ephemeral")));
      }
    }
    Optional<Long> period = GroupRules.integer(spec, "nodeAllocatableUpdatePeriodSeconds");
    if (period.isPresent() && period.get() < 10) {
      errs.add(FieldError.invalid("spec.nodeAllocatableUpdatePeriodSeconds",
          Value.of(period.get()), "must be greater than or equal to 10 seconds"));
    }
    if (old.isPresent()) {
      MapValue was = Nested.map(old.get(), "spec");
      immutable(errs, "spec.attachedRequired", spec.getOrNull("attachRequired"),
          was.getOrNull("attachRequired"));
      immutable(errs, "spec.volumeLifecycleModes", spec.getOrNull("volumeLifecycleModes"),
          was.getOrNull("volumeLifecycleModes"));
    }
    return errs;
  }
}
