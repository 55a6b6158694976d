/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.autoscaling;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.autoscaling.horizontalpodautoscaler.HorizontalPodAutoscalerPrinter;
import io.apiserver4j.registry.autoscaling.horizontalpodautoscaler.HorizontalPodAutoscalerStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code autoscaling} API group with their registry behaviour (kube's pkg/registry/autoscaling). */
public final class AutoscalingGroup {
  private AutoscalingGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("autoscaling", "v2", "HorizontalPodAutoscaler"),
            HorizontalPodAutoscalerStrategy.strategyV2(), HorizontalPodAutoscalerPrinter::printer),
        BuiltinKind.of(new GroupVersionKind("autoscaling", "v1", "HorizontalPodAutoscaler"),
            HorizontalPodAutoscalerStrategy.strategyV1(),
            HorizontalPodAutoscalerPrinter::printer));
  }
}
