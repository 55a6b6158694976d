/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.MapValue;

/** What a write did to its object: the object as the endpoint serves it afterwards. */
sealed interface WriteOutcome {
  MapValue object();

  /** The object did not exist and was created. */
  record Created(MapValue object) implements WriteOutcome {}

  /** The object existed and was updated (possibly to the same state). */
  record Updated(MapValue object) implements WriteOutcome {}

  /**
   * The object went from storage; {@code revision} is the store's revision of the deletion (0 on
   * a dry run or when unknown).
   */
  record Deleted(MapValue object, long revision) implements WriteOutcome {}
}
