/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.StoredObject;

/** What a write did to its object: the object as the endpoint serves it afterwards. */
sealed interface WriteOutcome {
  MapValue object();

  /**
   * The stored state whose object is {@link #object()} itself (the endpoint serves it as
   * stored), or null: then the answer's body is written from the store's encoding.
   */
  default StoredObject stored() {
    return null;
  }

  /** The object did not exist and was created. */
  record Created(MapValue object, StoredObject stored) implements WriteOutcome {
    Created(MapValue object) {
      this(object, null);
    }
  }

  /** The object existed and was updated (possibly to the same state). */
  record Updated(MapValue object, StoredObject stored) implements WriteOutcome {
    Updated(MapValue object) {
      this(object, null);
    }
  }

  /**
   * The object went from storage; {@code revision} is the store's revision of the deletion (0 on
   * a dry run or when unknown).
   */
  record Deleted(MapValue object, long revision) implements WriteOutcome {}
}
