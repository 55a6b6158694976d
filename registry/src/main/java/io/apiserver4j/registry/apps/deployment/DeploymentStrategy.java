/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.deployment;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.registry.apps.validation.WorkloadValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * apps/v1 Deployment, as kube's {@code pkg/registry/apps/deployment}: generation bumped by spec
 * and annotation changes, labels kept by status writes, {@code SetDefaults_Deployment} and
 * {@code ValidateDeployment}/{@code ValidateDeploymentUpdate} (replicas, selector and template,
 * strategy, deadlines, immutable selector).
 */
public final class DeploymentStrategy {
  private DeploymentStrategy() {}

  /** The Deployment's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC_AND_ANNOTATIONS)
        .extraStatusResetFields(FieldSet.of(FieldPath.of(new FieldName("metadata"),
            new FieldName("labels"))))
        .statusPreservedMetadata("labels")
        .defaulter(DeploymentStrategy::defaults)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        .gatedValidator(DeploymentStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "strategy", "type");
    if (str(r, "spec", "strategy", "type").equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate", "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    r = Nested.setDefault(r, Value.of(600L), "spec", "progressDeadlineSeconds");
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    // Deployments share ReplicaSet's template rules and wording
    WorkloadValidation.selectorAndTemplate(spec, "deployment", "ReplicaSet",
        PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"), errs);
    strategy(Nested.map(spec, "strategy"), errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    KubeValidation.nonNegative(spec.getOrNull("revisionHistoryLimit"),
        "spec.revisionHistoryLimit", errs);
    if (spec.getOrNull("progressDeadlineSeconds") instanceof IntegerValue pds) {
      KubeValidation.nonNegative(pds, "spec.progressDeadlineSeconds", errs);
      long minReady = spec.getOrNull("minReadySeconds") instanceof IntegerValue m ? m.value() : 0;
      if (pds.value() <= minReady) {
        errs.add(FieldError.invalid("spec.progressDeadlineSeconds", pds,
            "must be greater than minReadySeconds"));
      }
    }
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }

  private static void strategy(MapValue strategy, List<FieldError> errs) {
    String type = str(strategy, "type");
    switch (type) {
      case "Recreate" -> {
        if (strategy.getOrNull("rollingUpdate") instanceof MapValue) {
          errs.add(FieldError.forbidden("spec.strategy.rollingUpdate",
              "may not be specified when strategy `type` is 'Recreate'"));
        }
      }
      case "RollingUpdate" -> {
        MapValue ru = Nested.mapOrNull(strategy, "rollingUpdate");
        if (ru == null) {
          errs.add(FieldError.required("spec.strategy.rollingUpdate",
              "this should be defaulted and never be nil"));
          return;
        }
        String path = "spec.strategy.rollingUpdate";
        WorkloadValidation.positiveIntOrPercent(ru.getOrNull("maxUnavailable"),
            path + ".maxUnavailable", errs);
        WorkloadValidation.positiveIntOrPercent(ru.getOrNull("maxSurge"), path + ".maxSurge",
            errs);
        if (WorkloadValidation.intOrPercentValue(ru.getOrNull("maxUnavailable")) == 0
            && WorkloadValidation.intOrPercentValue(ru.getOrNull("maxSurge")) == 0) {
          errs.add(FieldError.invalid(path + ".maxUnavailable", orZero(ru.getOrNull(
              "maxUnavailable")), "may not be 0 when `maxSurge` is 0"));
        }
        WorkloadValidation.notMoreThan100Percent(ru.getOrNull("maxUnavailable"),
            path + ".maxUnavailable", errs);
      }
      default -> errs.add(FieldError.notSupported("spec.strategy", strategy,
          List.of("Recreate", "RollingUpdate")));
    }
  }

  private static Value orZero(Value v) {
    return v == null ? Value.of(0L) : v;
  }
}
