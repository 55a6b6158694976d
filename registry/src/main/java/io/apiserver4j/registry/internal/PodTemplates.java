/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.MapValue;
import java.util.List;

/**
 * The pod spec defaulting and validation that the kinds of other groups' packages call (the
 * workloads, Jobs, RuntimeClass), as kube's {@code pkg/apis/core} defaulters and
 * {@code pkg/apis/core/validation}. It only forwards to the core registry, whose pod spec
 * rules are package-private; it goes away when they have a public home of their own. Stateless
 * and thread-safe.
 */
public final class PodTemplates {
  private PodTemplates() {}

  /** {@code SetDefaults_PodSpec} and the generated defaulters of what a pod spec holds. */
  public static MapValue defaultPodSpec(MapValue spec) {
    return PodStrategies.defaultPodSpec(spec);
  }

  /**
   * The labels and annotations of a pod template's metadata ({@code ValidatePodTemplateSpec}),
   * reported under {@code path}; nothing for a null template.
   */
  public static void templateMetadata(MapValue template, String path, List<FieldError> errs) {
    PodStrategies.templateMetadata(template, path, errs);
  }

  /** {@code ValidatePodSpec} of a template's spec (null as empty), reported under {@code path}. */
  public static void validatePodSpec(MapValue spec, String path, List<FieldError> errs) {
    PodStrategies.validatePodSpec(spec, path, errs);
  }

  /** {@code ValidateTolerations}: keys, operators and their values, effects. */
  public static void validateTolerations(List<MapValue> tolerations, String path,
      List<FieldError> errs) {
    PodStrategies.validateTolerations(tolerations, path, errs);
  }
}
