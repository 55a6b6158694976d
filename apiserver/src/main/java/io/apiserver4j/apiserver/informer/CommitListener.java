/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.informer;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.ObjectKey;
import java.util.Optional;

/**
 * Told of every write this server committed to its storage, on the writing request's thread,
 * after the write and before the request returns; never of a dry run, nor of writes other
 * servers sharing the storage made (a watch of the store sees those). What lets a cache that
 * follows the store by a watch also see this server's writes at once, so that whoever wrote
 * reads its own write from the cache. Implementations must be fast and must not call back into
 * the server; a failure is logged and does not fail the request.
 */
@FunctionalInterface
public interface CommitListener {
  /**
   * @param key the object written
   * @param object the object as stored (at the storage version); empty when it was deleted
   * @param revision the store's revision of the write
   */
  void committed(ObjectKey key, Optional<MapValue> object, long revision);
}
