/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.replicaset;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.apps.validation.WorkloadValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * apps/v1 ReplicaSet, as kube's {@code pkg/registry/apps/replicaset}: generation bumped by spec
 * changes, {@code SetDefaults_ReplicaSet} and {@code ValidateReplicaSet}/
 * {@code ValidateReplicaSetUpdate} (replicas, selector and template, immutable selector).
 */
public final class ReplicaSetStrategy {
  private ReplicaSetStrategy() {}

  /** The ReplicaSet's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(ReplicaSetStrategy::defaults)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        .gatedValidator(ReplicaSetStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
    if (Nested.mapOrNull(o, "spec") == null) {
      return o;
    }
    return Nested.updateMap(Nested.setDefault(o, Value.of(1L), "spec", "replicas"),
        PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    // kube's ValidateReplicaSetSpec reuses the deployment wording
    WorkloadValidation.selectorAndTemplate(spec, "deployment", "ReplicaSet",
        PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"), errs);
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }
}
