/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.Optional;

/** kube's lastapplied.go: the annotation kubectl's client-side apply keeps. */
final class LastApplied {
  /** The annotation's key. */
  static final String ANNOTATION = "kubectl.kubernetes.io/last-applied-configuration";

  private LastApplied() {}

  /** The annotation's value, when {@code obj} has a non-empty one. */
  static Optional<String> of(MapValue obj) {
    return Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a
        && a.getOrNull(ANNOTATION) instanceof StringValue s && !s.value().isEmpty()
        ? Optional.of(s.value()) : Optional.empty();
  }

  /**
   * {@code obj} with the annotation set to {@code value}, or without it when the annotations
   * would exceed their total size limit (kube's {@code SetLastApplied}).
   */
  static MapValue set(MapValue obj, String value) {
    MapValue annotations = Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a
        ? a : MapValue.empty();
    annotations = annotations.with(ANNOTATION, Value.of(value));
    if (MetaValidation.annotationsSize(annotations) > MetaValidation.TOTAL_ANNOTATION_SIZE_LIMIT) {
      annotations = annotations.without(ANNOTATION);
    }
    return Meta.withMeta(obj, "annotations", annotations);
  }

  /** {@code obj} without the annotation. */
  static MapValue remove(MapValue obj) {
    if (!(Meta.metadata(obj).getOrNull("annotations") instanceof MapValue a)
        || !a.containsKey(ANNOTATION)) {
      return obj;
    }
    return Meta.withMeta(obj, "annotations", a.without(ANNOTATION));
  }
}
