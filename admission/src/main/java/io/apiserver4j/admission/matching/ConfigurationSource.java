/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The current objects of one resource that configures admission (webhook configurations,
 * policies, bindings, parameters): what kube-apiserver's admission plugins read from their
 * informers. The server keeps it current from its own writes (visible before the write's
 * response) and from the store's watch (other writers).
 *
 * <p>Implementations are thread-safe; a snapshot is immutable, and a new snapshot instance is
 * published only when the objects changed, so derived forms can be cached per snapshot
 * ({@link #derived}).
 */
@FunctionalInterface
public interface ConfigurationSource {
  /**
   * The objects now.
   *
   * @return the latest snapshot
   */
  Snapshot snapshot();

  /**
   * The objects of a resource at one point.
   *
   * @param revision the store revision the snapshot reflects (0 when unknown)
   * @param objects the objects, ordered by namespace then name
   */
  record Snapshot(long revision, List<MapValue> objects) {
    private static final Snapshot EMPTY = new Snapshot(0, List.of());

    /**
     * Copies the objects.
     *
     * @param revision see the record component
     * @param objects see the record component
     * @throws NullPointerException when an object is null
     */
    public Snapshot {
      objects = List.copyOf(objects);
    }

    /**
     * The snapshot of no objects at revision 0.
     *
     * @return the shared empty snapshot
     */
    public static Snapshot empty() {
      return EMPTY;
    }
  }

  /**
   * A source that always has {@code objects} (for embedding and tests).
   *
   * @param objects the configuration objects
   * @return the fixed source
   */
  static ConfigurationSource of(List<MapValue> objects) {
    Snapshot s = new Snapshot(0, requireNonNull(objects, "objects"));
    return () -> s;
  }

  /**
   * A view of this source through {@code derive} (e.g. compiled webhooks), computed once per
   * snapshot: {@code derive} runs again only after the objects changed.
   *
   * @param <T> the derived form
   * @param derive computes the form from a snapshot; must be side-effect free
   * @return a supplier of the derived form of the latest snapshot; thread-safe
   */
  default <T> Supplier<T> derived(Function<Snapshot, T> derive) {
    requireNonNull(derive, "derive");
    record Cached<T>(Snapshot from, T value) {}
    AtomicReference<Cached<T>> cache = new AtomicReference<>();
    return () -> {
      Snapshot now = snapshot();
      Cached<T> c = cache.get();
      if (c != null && c.from() == now) {
        return c.value();
      }
      Cached<T> fresh = new Cached<>(now, derive.apply(now));
      cache.set(fresh);
      return fresh.value();
    };
  }
}
