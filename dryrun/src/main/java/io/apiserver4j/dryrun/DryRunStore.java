/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoreErrors;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchOptions;
import java.time.InstantSource;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The storage side of {@code dryRun=All}: a decorator over a {@link Store} whose writes check
 * everything the real write checks, in the same order and with the same errors, and then write
 * nothing, emit no watch event and consume no revision. Reads go to the delegate.
 *
 * <p>Like kube-apiserver's dry-run storage, a write reads the current state and decides from it:
 * <ul>
 *   <li>{@link #create}: the delegate's refusal of a non-zero resourceVersion (500), then 409
 *       AlreadyExists if the key exists; returns the object with an empty resourceVersion.
 *   <li>{@link #update}: 404 NotFound, then 409 Conflict on a stale expected resourceVersion,
 *       then the precondition check (409); returns the object with the <em>current</em>
 *       resourceVersion, or the stored state when nothing would change (as the real update).
 *   <li>{@link #guaranteedUpdate}: 404, the preconditions, then the update function once.
 *   <li>{@link #delete}: 404, the preconditions; returns the current state. With
 *       {@link DeleteSettings}, also what a delete would persist (finalizers, grace), see
 *       {@link DeletionPreview}.
 * </ul>
 * The result reflects the state read at the time of the call; a concurrent write can make the
 * real request fail where the dry run succeeded, as in kube-apiserver.
 *
 * <p>It is a {@link Store}, so that a dry run is the same request path over another store.
 * Objects are created with {@link #over}; thread-safe when the delegate is.
 */
public final class DryRunStore implements Store {
  private final Store delegate;
  private final InstantSource clock;

  private DryRunStore(Store delegate, InstantSource clock) {
    this.delegate = delegate;
    this.clock = clock;
  }

  /**
   * Dry-run writes over {@code delegate}, with the system clock for deletion timestamps.
   *
   * @param delegate the store that reads and checks go to; it is never written
   * @return a new dry-run store
   */
  public static DryRunStore over(Store delegate) {
    return over(delegate, InstantSource.system());
  }

  /**
   * Dry-run writes over {@code delegate}; {@code clock} supplies deletion timestamps.
   *
   * @param delegate the store that reads and checks go to; it is never written
   * @param clock the source of {@code deletionTimestamp} in {@link DeletionPreview}s
   * @return a new dry-run store
   */
  public static DryRunStore over(Store delegate, InstantSource clock) {
    return new DryRunStore(requireNonNull(delegate, "delegate"), requireNonNull(clock, "clock"));
  }

  /**
   * The store reads go to.
   *
   * @return the wrapped store
   */
  public Store delegate() {
    return delegate;
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Optional<StoredObject> get(ObjectKey key) {
    return delegate.get(key);
  }

  @Override
  public ListResult list(CollectionKey collection, ListOptions options) {
    return delegate.list(collection, options);
  }

  @Override
  public Watch watch(CollectionKey collection, WatchOptions options) {
    return delegate.watch(collection, options);
  }

  @Override
  public long currentRevision() {
    return delegate.currentRevision();
  }

  // ---------------------------------------------------------------- dry writes

  /**
   * What {@link Store#create} would store, without storing it.
   *
   * @return {@code object} without {@code metadata.resourceVersion} (it has none yet, since
   *     nothing was written), at the store's current revision
   * @throws io.apiserver4j.core.errors.StatusException 500 when the object carries a non-zero
   *     resourceVersion, as the real create
   * @throws io.apiserver4j.core.errors.AlreadyExistsException if the key exists
   */
  @Override
  public StoredObject create(ObjectKey key, MapValue object) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    StoredObjects.requireNoResourceVersion(object);
    if (delegate.get(key).isPresent()) {
      throw StoreErrors.alreadyExists(key);
    }
    return new StoredObject(key, Meta.withoutMeta(object, "resourceVersion"),
        Math.max(1, delegate.currentRevision()));
  }

  /**
   * What {@link Store#update(ObjectKey, MapValue, long, Preconditions)} would store, without
   * storing it.
   *
   * @return the new state with the current resourceVersion (unchanged), or the stored state if
   *     the object would not change
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if the revision or a precondition differs
   */
  @Override
  public StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    requireNonNull(preconditions, "preconditions");
    Preconditions.requireValidExpectedRevision(expectedResourceVersion);
    StoredObject current = delegate.get(key).orElseThrow(() -> StoreErrors.notFound(key));
    preconditions.checkUpdate(current, expectedResourceVersion);
    return unchangedVersion(current, object);
  }

  /**
   * What {@link Store#guaranteedUpdate} would store: {@code tryUpdate} runs once on the current
   * state (nothing is written, so there is no race to retry); its exceptions propagate.
   *
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if a precondition fails
   */
  @Override
  public StoredObject guaranteedUpdate(ObjectKey key, Preconditions preconditions,
      UnaryOperator<MapValue> tryUpdate) {
    requireNonNull(key, "key");
    requireNonNull(preconditions, "preconditions");
    requireNonNull(tryUpdate, "tryUpdate");
    StoredObject current = delegate.get(key).orElseThrow(() -> StoreErrors.notFound(key));
    preconditions.check(current);
    MapValue updated = requireNonNull(tryUpdate.apply(current.object()), "tryUpdate result");
    return unchangedVersion(current, updated);
  }

  /**
   * What {@link Store#delete} would remove, without removing it.
   *
   * @return the current state (the real delete returns it stamped with the deletion revision)
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if a precondition fails
   */
  @Override
  public StoredObject delete(ObjectKey key, Preconditions preconditions) {
    requireNonNull(key, "key");
    requireNonNull(preconditions, "preconditions");
    StoredObject current = delegate.get(key).orElseThrow(() -> StoreErrors.notFound(key));
    preconditions.check(current);
    return current;
  }

  /**
   * A dry-run delete with kube-apiserver's registry semantics: the checks of
   * {@link #delete(ObjectKey, Preconditions)}, then what the delete would do to the object (see
   * {@link DeletionPreview}): an object kept by finalizers or a grace period shows its
   * {@code deletionTimestamp} and {@code deletionGracePeriodSeconds}; nothing is changed.
   *
   * @param key the object to delete
   * @param preconditions the request's uid and resourceVersion preconditions (409 Conflict)
   * @param settings the resource's deletion behaviour and the request's options
   * @return what the delete would do, with the object it would return
   * @throws io.apiserver4j.core.errors.NotFoundException 404 when the key does not exist
   */
  public DeletionPreview delete(ObjectKey key, Preconditions preconditions,
      DeleteSettings settings) {
    requireNonNull(settings, "settings");
    StoredObject current = delete(key, preconditions);
    return DeletionPreview.of(current.object(), settings, clock.instant());
  }

  private static StoredObject unchangedVersion(StoredObject current, MapValue updated) {
    if (StoredObjects.sameIgnoringResourceVersion(current, updated)) {
      return current;
    }
    return StoredObjects.stored(current.key(), updated, current.resourceVersion());
  }

  /** Nothing to close: the delegate belongs to whoever created this view. */
  @Override
  public void close() {}
}
