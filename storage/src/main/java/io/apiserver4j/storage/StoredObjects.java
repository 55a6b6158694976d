/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;

/**
 * Helpers for {@link Store} implementations that handle {@code metadata.resourceVersion} the same
 * way everywhere.
 */
public final class StoredObjects {
  private StoredObjects() {}

  /**
   * {@code object} with {@code metadata.resourceVersion} set to {@code revision}.
   *
   * @param object the object; not changed
   * @param revision the revision
   * @return the stamped copy
   */
  public static MapValue withResourceVersion(MapValue object, long revision) {
    requireNonNull(object, "object");
    return withResourceVersion(object, Long.toString(revision));
  }

  /** {@code object} with {@code metadata.resourceVersion} set to {@code rv}. */
  static MapValue withResourceVersion(MapValue object, String rv) {
    Value metaValue = object.getOrNull("metadata");
    MapValue meta = metaValue instanceof MapValue m ? m : MapValue.empty();
    if (meta.getOrNull("resourceVersion") instanceof StringValue s && s.value().equals(rv)) {
      return object;
    }
    return object.with("metadata", meta.with("resourceVersion", Value.of(rv)));
  }

  /**
   * A stored state: {@code object} stamped with {@code revision}.
   *
   * @param key where it is stored
   * @param object the object; not changed
   * @param revision its revision
   * @return the state
   */
  public static StoredObject stored(ObjectKey key, MapValue object, long revision) {
    return new StoredObject(key, withResourceVersion(object, revision), revision);
  }

  /**
   * Rejects a create whose object carries a non-zero numeric resourceVersion, as kube-apiserver's
   * storage does (an empty, zero or unparsable one is accepted and replaced).
   *
   * @param object the object to create
   * @throws io.apiserver4j.core.errors.StatusException 500 {@code resourceVersion should not be set on objects to be created}
   */
  public static void requireNoResourceVersion(MapValue object) {
    if (object.getOrNull("metadata") instanceof MapValue meta
        && meta.getOrNull("resourceVersion") instanceof StringValue s
        && parsesToNonZero(s.value())) {
      throw StoreErrors.resourceVersionSetOnCreate();
    }
  }

  private static boolean parsesToNonZero(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    try {
      return Long.parseUnsignedLong(s) != 0;
    } catch (NumberFormatException e) {
      return false; // overflows uint64: Go's ParseUint fails, so kube accepts the object
    }
  }

  /**
   * Whether {@code candidate} equals the stored state apart from its resourceVersion.
   *
   * @param current the stored state
   * @param candidate the object about to be written
   * @return true when the write would be a no-op
   */
  public static boolean sameIgnoringResourceVersion(StoredObject current, MapValue candidate) {
    return withResourceVersion(candidate, current.resourceVersion()).equals(current.object());
  }

  /**
   * Checks that {@code object} can be stored so that it reads back: no infinity or NaN (JSON has
   * none) and nesting within the decoders' depth limit. Every store calls it before a write.
   *
   * @throws io.apiserver4j.core.errors.InternalErrorException (500) otherwise; nothing is written
   * @param object the object about to be written
   */
  public static void requireEncodable(MapValue object) {
    HeapEstimate.of(object);
  }
}
