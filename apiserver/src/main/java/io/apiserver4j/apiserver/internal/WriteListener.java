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

  /** This listener, then {@code next}. */
  default WriteListener andThen(WriteListener next) {
    return (def, outcome) -> {
      committed(def, outcome);
      next.committed(def, outcome);
    };
  }
}
