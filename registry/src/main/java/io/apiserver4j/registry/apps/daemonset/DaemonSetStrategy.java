/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.daemonset;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

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
 * apps/v1 DaemonSet, as kube's {@code pkg/registry/apps/daemonset}: generation bumped by spec
 * changes, {@code SetDefaults_DaemonSet} and {@code ValidateDaemonSet}/
 * {@code ValidateDaemonSetUpdate} (selector and template, update strategy, immutable selector).
 */
public final class DaemonSetStrategy {
  private DaemonSetStrategy() {}

  /** The DaemonSet's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(DaemonSetStrategy::defaults)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        .gatedValidator(DaemonSetStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "updateStrategy", "type");
    if (str(r, "spec", "updateStrategy", "type").equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of(1L), "spec", "updateStrategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of(0L), "spec", "updateStrategy", "rollingUpdate",
          "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    WorkloadValidation.selectorAndTemplate(spec, "daemonset", "DaemonSet",
        PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"), errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    KubeValidation.nonNegative(spec.getOrNull("templateGeneration"), "spec.templateGeneration",
        errs);
    updateStrategy(Nested.map(spec, "updateStrategy"), errs);
    KubeValidation.nonNegative(spec.getOrNull("revisionHistoryLimit"),
        "spec.revisionHistoryLimit", errs);
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }

  private static void updateStrategy(MapValue us, List<FieldError> errs) {
    String path = "spec.updateStrategy";
    switch (str(us, "type")) {
      case "OnDelete" -> { }
      case "RollingUpdate" -> {
        MapValue ru = Nested.mapOrNull(us, "rollingUpdate");
        if (ru == null) {
          errs.add(FieldError.required(path + ".rollingUpdate", ""));
          break;
        }
        String rp = path + ".rollingUpdate";
        WorkloadValidation.positiveIntOrPercent(ru.getOrNull("maxUnavailable"),
            rp + ".maxUnavailable", errs);
        WorkloadValidation.positiveIntOrPercent(ru.getOrNull("maxSurge"), rp + ".maxSurge",
            errs);
        WorkloadValidation.notMoreThan100Percent(ru.getOrNull("maxUnavailable"),
            rp + ".maxUnavailable", errs);
        WorkloadValidation.notMoreThan100Percent(ru.getOrNull("maxSurge"), rp + ".maxSurge",
            errs);
        boolean unavailable =
            WorkloadValidation.intOrPercentValue(ru.getOrNull("maxUnavailable")) != 0;
        boolean surge = WorkloadValidation.intOrPercentValue(ru.getOrNull("maxSurge")) != 0;
        if (unavailable && surge) {
          errs.add(FieldError.invalid(rp + ".maxSurge", ru.getOrNull("maxSurge"),
              "may not be set when maxUnavailable is non-zero"));
        } else if (!unavailable && !surge) {
          errs.add(FieldError.required(rp + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
        }
      }
      default -> errs.add(FieldError.notSupported(path + ".type", Value.of(str(us, "type")),
          List.of("OnDelete", "RollingUpdate")));
    }
  }
}
