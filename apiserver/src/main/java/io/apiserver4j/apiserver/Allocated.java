/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What an {@link Allocator} gave an object, with kube's allocation transaction: {@link #commit}
 * once the object is stored (an update then gives back what the old object held and the new one
 * does not), {@link #revert} when it was not (what was claimed is given back). Only the first of
 * the two calls acts. Thread-safe.
 */
public final class Allocated {
  private final MapValue object;
  private final Runnable commit;
  private final Runnable revert;
  private final AtomicBoolean finished = new AtomicBoolean();

  private Allocated(MapValue object, Runnable commit, Runnable revert) {
    this.object = requireNonNull(object, "object");
    this.commit = requireNonNull(commit, "commit");
    this.revert = requireNonNull(revert, "revert");
  }

  /** {@code object}, with nothing claimed. */
  public static Allocated of(MapValue object) {
    return new Allocated(object, () -> { }, () -> { });
  }

  /**
   * {@code object}, finished by {@code commit} or {@code revert}.
   *
   * @param object the object with its allocated values
   * @param commit runs when the object was stored
   * @param revert runs when it was not
   */
  public static Allocated of(MapValue object, Runnable commit, Runnable revert) {
    return new Allocated(object, commit, revert);
  }

  /** The object with the values it was given. */
  public MapValue object() {
    return object;
  }

  /** The object was stored: finishes the claim (no-op after a commit or revert). */
  public void commit() {
    if (finished.compareAndSet(false, true)) {
      commit.run();
    }
  }

  /** The object was not stored: gives back what was claimed (no-op after a commit or revert). */
  public void revert() {
    if (finished.compareAndSet(false, true)) {
      revert.run();
    }
  }
}
