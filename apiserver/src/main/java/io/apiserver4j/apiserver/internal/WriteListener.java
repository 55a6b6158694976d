/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;

/**
 * Told of every write that reached storage, after it did: how the server's controllers (CRD
 * naming and finalization, namespace finalization) follow what clients write. Never told of a
 * dry run.
 */
@FunctionalInterface
interface WriteListener {
  WriteListener NONE = (def, outcome) -> { };

  void committed(ResourceDefinition def, WriteOutcome outcome);

  /**
   * Tells this listener of {@code outcome} and never fails: the write is already stored, so a
   * listener's failure (a controller's, which kube runs apart from the request) is logged with
   * its stack and must not turn the committed request into an error.
   */
  default void committedQuietly(ResourceDefinition def, WriteOutcome outcome) {
    try {
      committed(def, outcome);
    } catch (RuntimeException e) {
      org.slf4j.LoggerFactory.getLogger(WriteListener.class).error(
          "a controller failed to follow a write to {}", def.resource(), e);
    }
  }

  /** This listener, then {@code next}. */
  default WriteListener andThen(WriteListener next) {
    return (def, outcome) -> {
      committedQuietly(def, outcome);
      next.committedQuietly(def, outcome);
    };
  }
}
