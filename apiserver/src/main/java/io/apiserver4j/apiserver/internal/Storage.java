/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.dryrun.DryRunStore;
import io.apiserver4j.dryrun.GeneratedValuesPolicy;
import io.apiserver4j.storage.Store;
import java.time.Clock;
import java.util.function.BinaryOperator;

/**
 * Where a request's writes go: the server's store with its controllers listening, or — for
 * {@code dryRun=All} — the dry-run store, which checks everything and writes nothing, with no
 * listener, and the generated-values policy deciding what a create answers. Chosen once per
 * request; nothing downstream asks whether it runs dry.
 *
 * @param createdResponse what a create answers, from the requested and the created object
 */
record Storage(Store store, WriteListener listener, BinaryOperator<MapValue> createdResponse) {
  static Storage real(Store store, WriteListener listener) {
    return new Storage(store, listener, (requested, created) -> created);
  }

  static Storage dryRun(Store store, Clock clock, GeneratedValuesPolicy generatedValues) {
    return new Storage(DryRunStore.over(store, clock), WriteListener.NONE,
        generatedValues::applyToCreate);
  }
}
