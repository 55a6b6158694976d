/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.ScalarType;

/**
 * A resolved type: the atom a {@link io.apiserver4j.merge.TypeRef} stands for, with
 * element-relationship overrides applied and child types resolved lazily (so recursive schemas
 * work and only the reachable part of a large schema is ever resolved). Walkers hold nodes, never
 * type references, so a named type is looked up once per schema rather than once per value.
 *
 * <p>Thread-safe: lazily resolved children are immutable nodes published through racy but
 * idempotent caches.
 */
public final class TypeNode {
  public static final int SCALAR = 1;
  public static final int LIST = 2;
  public static final int MAP = 4;

  /** "named type: X" or "inlined", as SMD names atoms in errors. */
  public final String description;
  /** Why the reference could not be resolved, or null. */
  public final String unresolved;
  public final ScalarType scalar;
  public final ListNode list;
  public final MapNode map;
  /** Which members are present ({@link #SCALAR} | {@link #LIST} | {@link #MAP}). */
  public final int mask;

  TypeNode(String description, ScalarType scalar, ListNode list, MapNode map) {
    this.description = description;
    this.unresolved = null;
    this.scalar = scalar;
    this.list = list;
    this.map = map;
    this.mask = (scalar != null ? SCALAR : 0) | (list != null ? LIST : 0) | (map != null ? MAP : 0);
  }

  private TypeNode(String description, String unresolved) {
    this.description = description;
    this.unresolved = unresolved;
    this.scalar = null;
    this.list = null;
    this.map = null;
    this.mask = 0;
  }

  static TypeNode unresolved(String description, String message) {
    return new TypeNode(description, message);
  }

  /**
   * The members of this type that apply to {@code v} (SMD's {@code deduceAtom}): the single
   * matching member, or every member when {@code v} is absent (Java null), null, or matches none.
   */
  public int deduce(Value v) {
    if (v == null) {
      return mask;
    }
    // instanceof rather than kind(): this runs once per node of every walk.
    int bit;
    if (v instanceof MapValue) {
      bit = MAP;
    } else if (v instanceof ListValue) {
      bit = LIST;
    } else if (v instanceof NullValue) {
      return mask;
    } else {
      bit = SCALAR;
    }
    return (mask & bit) != 0 ? bit : mask;
  }

  /** The member a walker handles for a deduced mask: map first, then scalar, then list; 0 if none. */
  public static int handled(int deducedMask) {
    if ((deducedMask & MAP) != 0) {
      return MAP;
    }
    if ((deducedMask & SCALAR) != 0) {
      return SCALAR;
    }
    if ((deducedMask & LIST) != 0) {
      return LIST;
    }
    return 0;
  }

  @Override
  public String toString() {
    return description;
  }
}
