/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.informer;

import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The stored objects of one resource, always current, as a {@link ConfigurationSource}: kept by
 * a {@link StoreInformer} (listed when started, then followed by a background watch of the store,
 * whoever writes; writes through this server are also followed synchronously). Thread-safe.
 */
public final class ConfigurationInformer implements ConfigurationSource {
  private static final AtomicInteger THREADS = new AtomicInteger();
  public static final String THREAD_PREFIX = "apiserver4j-config-informer-";

  private final StoreInformer informer;
  /** By namespace/name. Guarded by the informer's lock (only its target callbacks touch it). */
  private final Map<String, MapValue> objects = new HashMap<>();
  private volatile Snapshot snapshot = Snapshot.empty();

  public ConfigurationInformer(Store store, CollectionKey collection) {
    this.informer = new StoreInformer(store, collection, collection.toString(), THREAD_PREFIX,
        THREADS, new StoreInformer.Target() {
          @Override
          public void apply(String key, MapValue object) {
            if (object == null) {
              objects.remove(key);
            } else {
              objects.put(key, object);
            }
          }

          @Override
          public Set<String> keys() {
            return Set.copyOf(objects.keySet());
          }

          @Override
          public void applied(long floor) {
            publish(floor);
          }
        });
  }

  @Override
  public Snapshot snapshot() {
    return snapshot;
  }

  /**
   * Lists the objects, then follows changes in the background.
   *
   * @throws io.apiserver4j.core.errors.StatusException if they cannot be listed
   */
  public void start() {
    informer.start();
  }

  /** Stops the background watch and waits for its thread to end. Idempotent. */
  public void close() {
    informer.close();
  }

  /** Applies the stored state of {@code key}, read now (after a write through this server). */
  public void refresh(ObjectKey key) {
    Optional<StoredObject> stored = informer.store().get(key);
    if (stored.isPresent()) {
      informer.follow(StoreInformer.key(key.namespace(), key.name()), stored.get().object(),
          stored.get().resourceVersion());
    } else {
      // deleted since: the list tells at which revision, at the latest
      informer.resync();
    }
  }

  /** Applies the deletion of {@code key} at {@code revision}. */
  public void deleted(ObjectKey key, long revision) {
    if (revision > 0) {
      informer.follow(StoreInformer.key(key.namespace(), key.name()), null, revision);
    } else {
      informer.resync();
    }
  }

  /** Lists the objects and applies the state they show. */
  public void resync() {
    informer.resync();
  }

  /**
   * Waits until every change up to {@code revision} is applied (the watch got there, or a list
   * taken after the store did).
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept)
   */
  public boolean awaitRevision(long revision, Duration timeout) {
    return informer.awaitWatched(revision, timeout);
  }

  /** Publishes a new snapshot if the objects differ from the current one. */
  private void publish(long floor) {
    List<MapValue> sorted = new ArrayList<>(new TreeMap<>(objects).values());
    if (!sorted.equals(snapshot.objects())) {
      snapshot = new Snapshot(floor, sorted);
    }
  }
}
