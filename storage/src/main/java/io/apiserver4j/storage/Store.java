/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.fields.FieldSelector;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Versioned object storage with compare-and-swap writes and watches, modelled on
 * kube-apiserver's {@code storage.Interface} over etcd.
 *
 * <p>Every successful write takes the next value of a single store-wide revision counter, which
 * only grows; the written object's {@code metadata.resourceVersion} is that revision. Reads are
 * consistent: they observe every write that completed before they started. Writes to one key are
 * linearizable. Objects go in without caring about {@code metadata.resourceVersion} (it is
 * replaced) and come out with it set. Implementations are thread-safe.
 *
 * <p>Errors are {@link io.apiserver4j.core.errors.StatusException}s built by {@link StoreErrors}:
 * 404 NotFound, 409 AlreadyExists, 409 Conflict (a lost compare-and-swap or a failed
 * {@link Preconditions} check), 410 Expired (compacted revisions, stale continue tokens), 400
 * BadRequest (malformed continue tokens), 504 Timeout (a revision the store has not reached).
 * Every implementation passes the contract test suite {@code StoreContractTest} (test-jar).
 */
public interface Store extends AutoCloseable {
  /** Passed as {@code expectedResourceVersion} to update whatever the current version is. */
  long ANY_VERSION = 0;

  /**
   * The current state of one object.
   *
   * @param key the object
   * @return the state; empty if it does not exist
   */
  Optional<StoredObject> get(ObjectKey key);

  /**
   * The objects of a collection matching the options, in key order, paged as kube-apiserver
   * pages lists: every page of one list is read at the first page's revision.
   *
   * @param collection the objects to list
   * @param options selectors, paging and resourceVersion semantics
   * @return one page
   */
  ListResult list(CollectionKey collection, ListOptions options);

  /**
   * Stores a new object.
   *
   * @throws io.apiserver4j.core.errors.AlreadyExistsException if the key exists
   * @throws io.apiserver4j.core.errors.StatusException (500, no reason) if the object carries a non-zero
   *     {@code metadata.resourceVersion}, as kube-apiserver's storage refuses that
   * @param key where to store it
   * @param object the object; its resourceVersion is set by the store
   * @return the stored state, with its new resourceVersion
   */
  StoredObject create(ObjectKey key, MapValue object);

  /**
   * Replaces an object if its current revision is {@code expectedResourceVersion} (or with
   * {@link #ANY_VERSION}, whatever it is) and the preconditions hold. If the new object equals
   * the stored one apart from {@code metadata.resourceVersion}, nothing is written and the
   * current state is returned (kube's no-op update keeps the resourceVersion).
   *
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if the revision or a precondition differs
   * @param key the object
   * @param object the new object
   * @param expectedResourceVersion the revision the caller read, or {@link #ANY_VERSION}
   * @param preconditions uid and resourceVersion conditions
   * @return the new state, or the current one for a no-op
   */
  StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion,
      Preconditions preconditions);

  /**
   * {@link #update(ObjectKey, MapValue, long, Preconditions)} without preconditions.
   *
   * @param key the object
   * @param object the new object
   * @param expectedResourceVersion the revision the caller read, or {@link #ANY_VERSION}
   * @return the new state, or the current one for a no-op
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if the revision differs
   */
  default StoredObject update(ObjectKey key, MapValue object, long expectedResourceVersion) {
    return update(key, object, expectedResourceVersion, Preconditions.none());
  }

  /**
   * Read-modify-write with retries, like kube's {@code GuaranteedUpdate}: applies
   * {@code tryUpdate} to the current object and writes the result with compare-and-swap,
   * re-reading and retrying when another writer got in between. {@code tryUpdate} may run
   * several times and may throw to abort (the exception propagates).
   *
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if a precondition fails on the current state
   * @param key the object
   * @param preconditions checked against every state read
   * @param tryUpdate computes the new object from the current one
   * @return the state written, or the current one when {@code tryUpdate} changed nothing
   */
  default StoredObject guaranteedUpdate(ObjectKey key, Preconditions preconditions,
      UnaryOperator<MapValue> tryUpdate) {
    while (true) {
      StoredObject current = get(key).orElseThrow(() -> StoreErrors.notFound(key));
      preconditions.check(current);
      MapValue updated = tryUpdate.apply(current.object());
      try {
        return update(key, updated, current.resourceVersion(), preconditions);
      } catch (io.apiserver4j.core.errors.ConflictException e) {
        // a precondition failure is final; a lost race is retried on the fresh state
        StoredObject now = get(key).orElseThrow(() -> StoreErrors.notFound(key));
        preconditions.check(now);
      }
    }
  }

  /**
   * Deletes an object if the preconditions hold.
   *
   * @return the object's last state, its resourceVersion being the deletion revision
   * @throws io.apiserver4j.core.errors.NotFoundException if the key does not exist
   * @throws io.apiserver4j.core.errors.ConflictException if a precondition fails
   * @param key the object
   * @param preconditions uid and resourceVersion conditions
   */
  StoredObject delete(ObjectKey key, Preconditions preconditions);

  /**
   * Watches a collection. Changes are delivered in revision order, each exactly once, filtered
   * by the selectors with kube's transitions: a change that makes an object match is ADDED, one
   * that makes it stop matching is DELETED.
   *
   * @throws io.apiserver4j.core.errors.GoneException 410 Expired ({@code too old resource version: X
   *     (Y)}) if changes after {@code options.resourceVersion()} are no longer retained; the
   *     HTTP layer reports it as kube does, as a single ERROR event
   * @param collection the objects to watch
   * @param options start revision, initial events, selectors and bookmarks
   * @return the open watch; the caller closes it
   */
  Watch watch(CollectionKey collection, WatchOptions options);

  /**
   * Watches one object: the collection watch narrowed with {@code metadata.name=<name>}.
   *
   * @param key the object
   * @param options start revision, initial events, selectors and bookmarks
   * @return the open watch
   */
  default Watch watch(ObjectKey key, WatchOptions options) {
    return watch(key.collection(), options.toBuilder()
        .fieldSelector(options.fieldSelector().and(FieldSelector.equal("metadata.name", key.name())))
        .build());
  }

  /**
   * The revision of the latest write.
   *
   * @return a positive revision (the in-memory store starts at 1)
   */
  long currentRevision();

  /**
   * Why the storage cannot serve requests now, or empty when it can: the storage check behind
   * kube-apiserver's {@code /livez/etcd}, {@code /readyz/etcd} and {@code /healthz/etcd}. Answers
   * within a few seconds and never throws. The default (storage in this process) is always
   * healthy.
   *
   * @return the problem; empty when healthy
   */
  default Optional<String> check() {
    return Optional.empty();
  }

  /** Ends all watches and releases resources; later calls fail with IllegalStateException. */
  @Override
  void close();
}
