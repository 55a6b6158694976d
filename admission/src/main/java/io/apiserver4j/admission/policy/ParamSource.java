/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.Optional;

/**
 * The parameter objects of one kind, as a policy binding's {@code paramRef} reads them.
 * Implementations must be thread-safe.
 */
public interface ParamSource {

  /**
   * Whether objects of this kind live in namespaces.
   *
   * @return true for namespaced kinds
   */
  boolean namespaced();

  /**
   * The object {@code name} in {@code namespace} (empty for cluster-scoped kinds).
   *
   * @param namespace the namespace, or empty
   * @param name the object name
   * @return the object, or empty
   */
  Optional<MapValue> get(String namespace, String name);

  /**
   * The objects in {@code namespace} (empty for cluster-scoped kinds, or all namespaces never:
   * policies always name one) whose labels match {@code labelSelector}, a
   * {@code metav1.LabelSelector} value (an empty selector matches everything).
   *
   * @throws io.apiserver4j.core.errors.StatusException when the selector is invalid
   * @param namespace the namespace, or empty
   * @param labelSelector the selector value
   * @return the matching objects
   */
  List<MapValue> list(String namespace, MapValue labelSelector);
}
