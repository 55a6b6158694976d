/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * Reads Namespace objects for namespace selectors (and policies' {@code namespaceObject}).
 * Implementations read the current state (kube falls back from its cache to storage, so a
 * namespace created just before is found) and are thread-safe.
 */
@FunctionalInterface
public interface NamespaceLookup {
  /** A lookup that finds no namespace. */
  NamespaceLookup NONE = name -> Optional.empty();

  /**
   * The Namespace object named {@code name}, or empty when there is none.
   *
   * @throws io.apiserver4j.core.errors.StatusException when it cannot be read
   * @param name the namespace name
   * @return the namespace, or empty
   */
  Optional<MapValue> namespace(String name);
}
