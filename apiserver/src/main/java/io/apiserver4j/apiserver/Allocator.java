/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.core.MapValue;
import java.util.Optional;

/**
 * Values an object takes from a pool that every object of the resource shares, as kube's
 * Service registry allocates cluster IPs and node ports (its {@code BeginCreate},
 * {@code BeginUpdate} and {@code AfterDelete} hooks). The pool lives in storage, never in one
 * server's memory, so that servers sharing a store never hand out the same value: a claim is
 * a write the store makes atomic. The server holds no lock while it allocates.
 *
 * <p>{@link #allocate} runs before preparation and validation on create and on update; the
 * server then calls {@link Allocated#commit} once the object is stored, or
 * {@link Allocated#revert} when the write failed (validation, admission, a lost race), so that
 * a failed write holds nothing. {@link #release} runs after the object was deleted and
 * {@link #start} once when a server starts. Implementations are thread-safe.
 */
public interface Allocator {
  /**
   * Claims what {@code object} needs.
   *
   * @param object the object about to be prepared, validated and stored
   * @param old the stored object on updates
   * @param allocation the pool and the request's options
   * @return the object with the values it was given, and how to finish the claim
   * @throws io.apiserver4j.core.errors.StatusException (Invalid) when a requested value is taken or
   *     out of range; nothing stays claimed then
   */
  Allocated allocate(MapValue object, Optional<MapValue> old, Allocation allocation);

  /**
   * Gives back what a deleted object held (kube's {@code AfterDelete}). Never throws for a value
   * that is not held.
   *
   * @param deleted the object's last state
   * @param allocation the pool (never a dry run)
   */
  default void release(MapValue deleted, Allocation allocation) {}

  /**
   * Runs when a server starts, before it writes its bootstrap objects: creates what the pool
   * needs and repairs it from the stored objects (kube's repair controllers).
   *
   * @param allocation the pool (never a dry run)
   */
  default void start(Allocation allocation) {}
}
