/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.plugins;

/**
 * What the namespace plugins need to know about namespaces; the server wires it to its
 * storage. Implementations must be thread-safe and read current (not cached) state, so that a
 * namespace created just before a request is seen by it.
 */
public interface NamespaceStore {

  /**
   * The namespace's phase.
   *
   * @param namespace the namespace name
   * @return the phase, or empty when it does not exist
   */
  java.util.Optional<NamespacePhase> phase(String namespace);

  /**
   * Creates an active namespace.
   *
   * @throws io.apiserver4j.core.errors.AlreadyExistsException when it exists already (tolerated by the
   *     callers)
   * @throws io.apiserver4j.core.errors.StatusException for other failures
   * @param namespace the namespace name
   */
  void create(String namespace);
}
