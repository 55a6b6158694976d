/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.coordination.lease;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * coordination.k8s.io/v1 Lease, as kube's {@code pkg/registry/coordination/lease} with
 * {@code ValidateLeaseSpec} (durations, transitions, strategy and preferred holder).
 */
public final class LeaseStrategy {
  private LeaseStrategy() {}

  /** The Lease's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(LeaseStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue lease, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(lease, "spec");
    Long duration = GroupValidation.integer(spec, "leaseDurationSeconds");
    if (duration != null && duration <= 0) {
      errs.add(FieldError.invalid("spec.leaseDurationSeconds", Value.of(duration),
          "must be greater than 0"));
    }
    Long transitions = GroupValidation.integer(spec, "leaseTransitions");
    if (transitions != null && transitions < 0) {
      errs.add(FieldError.invalid("spec.leaseTransitions", Value.of(transitions),
          "must be greater than or equal to 0"));
    }
    String strategy = GroupValidation.str(spec, "strategy");
    if (GroupValidation.has(spec, "strategy")) {
      // kube appends "strategy" to the strategy's own path here
      String at = "spec.strategy.strategy";
      if (!strategy.contains("/")) {
        if (!strategy.equals("OldestEmulationVersion")) {
          errs.add(FieldError.notSupported(at, Value.of(strategy),
              List.of("OldestEmulationVersion")));
        }
      } else {
        for (String msg : MetaValidation.qualifiedName(strategy)) {
          errs.add(FieldError.invalid(at, Value.of(strategy), msg));
        }
      }
    }
    if (!GroupValidation.str(spec, "preferredHolder").isEmpty() && strategy.isEmpty()) {
      errs.add(FieldError.forbidden("spec.preferredHolder",
          "may only be specified if `strategy` is defined"));
    }
    return errs;
  }
}
