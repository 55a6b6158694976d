/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.Value;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Decoded managedFields by the identity of their (immutable) list. A stored object's list is the
 * very instance a {@link FieldManager} encoded or decoded last time, so the next write on the
 * object skips decoding its field sets again. One cache serves the field managers of one server;
 * it is bounded (a fixed number of slots, a newer list evicting an older one in the same slot)
 * and lossy: a miss just decodes.
 *
 * <p>Thread-safe.
 */
public final class ManagedFieldsCache {
  private record Slot(ListValue key, Managed managed) {}

  private final AtomicReferenceArray<Slot> slots;
  private final int mask;

  private ManagedFieldsCache(int size) {
    this.slots = new AtomicReferenceArray<>(size);
    this.mask = size - 1;
  }

  /**
   * A cache of {@code slots} entries.
   *
   * @throws IllegalArgumentException unless {@code slots} is a power of two between 1 and 65536
   */
  public static ManagedFieldsCache ofSize(int slots) {
    if (slots < 1 || slots > 65536 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two in [1, 65536], got "
          + slots);
    }
    return new ManagedFieldsCache(slots);
  }

  /** A cache that never remembers anything. */
  public static ManagedFieldsCache none() {
    return new ManagedFieldsCache(0);
  }

  /** {@link Managed#decode} of {@code managedFields}, from the cache when it was seen. */
  Managed decode(Value managedFields) {
    if (mask < 0 || !(managedFields instanceof ListValue list) || list.isEmpty()) {
      return Managed.decode(managedFields);
    }
    int i = System.identityHashCode(list) & mask;
    Slot s = slots.get(i);
    if (s != null && s.key == list) {
      return s.managed;
    }
    Managed m = Managed.decode(list);
    slots.set(i, new Slot(list, m));
    return m;
  }

  /** Remembers that {@code list} decodes to {@code managed}. */
  void remember(ListValue list, Managed managed) {
    if (mask >= 0 && !list.isEmpty()) {
      slots.set(System.identityHashCode(list) & mask, new Slot(list, managed));
    }
  }
}
