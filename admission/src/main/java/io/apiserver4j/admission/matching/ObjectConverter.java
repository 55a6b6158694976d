/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/**
 * Converts an object to another version of its kind, for webhooks and policies that matched a
 * request through an equivalent resource ({@link MatchPolicy#EQUIVALENT}). Thread-safe.
 */
@FunctionalInterface
public interface ObjectConverter {
  /**
   * Only the apiVersion changes: right for versions with the same schema (kube's {@code None}
   * conversion strategy of custom resources).
   */
  ObjectConverter API_VERSION = (object, to) -> {
    String apiVersion = to.group().isEmpty() ? to.version() : to.group() + "/" + to.version();
    return object.with("apiVersion", Value.of(apiVersion));
  };

  /**
   * {@code object} as version {@code to}.
   *
   * @throws io.apiserver4j.core.errors.StatusException when it cannot be converted
   * @param object the object
   * @param to the target group, version and kind
   * @return the converted object
   */
  MapValue convert(MapValue object, GroupVersionKind to);
}
