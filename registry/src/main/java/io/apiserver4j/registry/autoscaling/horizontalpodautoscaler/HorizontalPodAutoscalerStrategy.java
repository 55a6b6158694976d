/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.autoscaling.horizontalpodautoscaler;

import static io.apiserver4j.apimachinery.validation.GroupValidation.map;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;

/**
 * autoscaling/v1 and autoscaling/v2 HorizontalPodAutoscaler, as kube's
 * {@code pkg/registry/autoscaling/horizontalpodautoscaler} with the defaults of
 * {@code pkg/apis/autoscaling/v1/defaults.go} and {@code v2/defaults.go} and the validation of
 * {@code pkg/apis/autoscaling/validation} ({@link HorizontalPodAutoscalerValidation}).
 */
public final class HorizontalPodAutoscalerStrategy {
  private HorizontalPodAutoscalerStrategy() {}

  /** The autoscaling/v2 HorizontalPodAutoscaler's strategy. */
  public static ResourceStrategy strategyV2() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
        .defaulter(HorizontalPodAutoscalerStrategy::defaultV2)
        .validator(HorizontalPodAutoscalerValidation::validateV2)
        .build();
  }

  /** The autoscaling/v1 HorizontalPodAutoscaler's strategy. */
  public static ResourceStrategy strategyV1() {
    return ResourceStrategy.builder()
        .defaulter(HorizontalPodAutoscalerStrategy::defaultV1)
        .validator(HorizontalPodAutoscalerValidation::validateV1)
        .build();
  }

  static MapValue defaultV1(MapValue hpa) {
    if (Nested.mapOrNull(hpa, "spec") == null) {
      return hpa;
    }
    return Nested.setDefault(hpa, Value.of(1L), "spec", "minReplicas");
  }

  static MapValue defaultV2(MapValue hpa) {
    MapValue r = hpa;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "minReplicas");
    if (Nested.list(r, "spec", "metrics").isEmpty()) {
      r = Nested.set(r, Value.list(MapValue.ofEntries("type", Value.of("Resource"), "resource",
          MapValue.ofEntries("name", Value.of("cpu"), "target", MapValue.ofEntries(
              "type", Value.of("Utilization"), "averageUtilization", Value.of(80L))))),
          "spec", "metrics");
    }
    MapValue behavior = Nested.mapOrNull(r, "spec", "behavior");
    if (behavior != null) {
      behavior = behavior.with("scaleUp", rules(map(behavior, "scaleUp"), Value.of(0L),
          Value.list(policy("Pods", 4), policy("Percent", 100))));
      behavior = behavior.with("scaleDown", rules(map(behavior, "scaleDown"), null,
          Value.list(policy("Percent", 100))));
      r = Nested.set(r, behavior, "spec", "behavior");
    }
    return r;
  }

  private static MapValue policy(String type, long value) {
    return MapValue.ofEntries("type", Value.of(type), "value", Value.of(value), "periodSeconds",
        Value.of(15L));
  }

  // kube's copyHPAScalingRules over the default rules: fields the client set win
  private static MapValue rules(MapValue given, Value window, ListValue policies) {
    MapValue.Builder b = MapValue.empty().toBuilder();
    Value w = given == null ? null : given.getOrNull("stabilizationWindowSeconds");
    if (w != null && !w.isNull()) {
      b.put("stabilizationWindowSeconds", w);
    } else if (window != null) {
      b.put("stabilizationWindowSeconds", window);
    }
    Value select = given == null ? null : given.getOrNull("selectPolicy");
    b.put("selectPolicy", select != null && !select.isNull() ? select : Value.of("Max"));
    Value pol = given == null ? null : given.getOrNull("policies");
    b.put("policies", pol instanceof ListValue ? pol : policies);
    Value tolerance = given == null ? null : given.getOrNull("tolerance");
    if (tolerance != null && !tolerance.isNull()) {
      b.put("tolerance", tolerance);
    }
    return b.build();
  }
}
