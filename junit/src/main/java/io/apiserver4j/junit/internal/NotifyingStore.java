/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchOptions;
import java.util.Optional;

/** A store that runs {@code onWrite} after every successful write of the store it wraps. */
final class NotifyingStore implements Store {
  private final Store store;
  private final Runnable onWrite;

  NotifyingStore(Store store, Runnable onWrite) {
    this.store = store;
    this.onWrite = onWrite;
  }

  @Override
  public Optional<StoredObject> get(ObjectKey key) {
    return store.get(key);
  }

  @Override
  public ListResult list(CollectionKey collection, ListOptions options) {
    return store.list(collection, options);
  }

  @Override
  public StoredObject create(ObjectKey key, MapValue object) {
    StoredObject s = store.create(key, object);
    onWrite.run();
    return s;
  }

  @Override
  public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions) {
    StoredObject s = store.update(key, object, expectedResourceVersion, preconditions);
    onWrite.run();
    return s;
  }

  @Override
  public StoredObject delete(ObjectKey key, Preconditions preconditions) {
    StoredObject s = store.delete(key, preconditions);
    onWrite.run();
    return s;
  }

  @Override
  public Watch watch(CollectionKey collection, WatchOptions options) {
    return store.watch(collection, options);
  }

  @Override
  public long currentRevision() {
    return store.currentRevision();
  }

  @Override
  public void close() {
    store.close();
  }
}
