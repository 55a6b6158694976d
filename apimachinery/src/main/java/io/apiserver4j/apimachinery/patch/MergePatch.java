/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;

/**
 * JSON merge patch (RFC 7386, {@code application/merge-patch+json}) as kube-apiserver applies
 * it, and the diff that produces one.
 *
 * <p>{@link #apply}: {@code null} members delete, objects merge recursively, anything else
 * replaces. kube-apiserver uses evanphx/json-patch v4, which differs from the RFC in three
 * observable ways that are kept here:
 * <ul>
 *   <li>a patch that is {@code null}, a string, a number or a boolean is rejected with
 *       {@link BadRequestException} {@code Invalid JSON Patch} (the RFC would make it the
 *       result);</li>
 *   <li>a patch that is an array becomes the result, with {@code null} members of objects
 *       inside it removed;</li>
 *   <li>when a patch value lands where there was no object, {@code null} members are removed
 *       from it recursively, including inside arrays.</li>
 * </ul>
 *
 * <p>Inputs are never changed; unchanged subtrees are shared with the result. Thread-safe.
 */
public final class MergePatch {
  private MergePatch() {}

  /**
   * Applies {@code patch} to {@code document}.
   *
   * @throws BadRequestException {@code Invalid JSON Patch} when the patch is {@code null} or a
   *     scalar
   * @throws StatusException 500 {@code Invalid JSON Document} when the document is
   *     {@code null} (kube-apiserver does not map that error)
   * @param document the document; not changed
   * @param patch the RFC 7386 merge patch
   * @return the patched document
   */
  public static Value apply(Value document, Value patch) {
    requireNonNull(document, "document");
    requireNonNull(patch, "patch");
    if (document instanceof NullValue) {
      throw PatchErrors.unmapped("Invalid JSON Document");
    }
    if (patch instanceof NullValue) {
      throw PatchErrors.badRequest("Invalid JSON Patch");
    }
    if (patch instanceof MapValue p) {
      return document instanceof MapValue d ? mergeObjects(d, p) : prune(p);
    }
    if (patch instanceof ListValue) {
      return prune(patch);
    }
    throw PatchErrors.badRequest("Invalid JSON Patch");
  }

  /**
   * A merge patch that turns {@code original} into {@code modified} (evanphx's
   * {@code CreateMergePatch} for two objects): new and changed members with their new value,
   * removed members as {@code null}, objects diffed recursively, arrays replaced whole. Numbers
   * compare by value, so {@code 1} and {@code 1.0} are the same.
   *
   * @throws IllegalArgumentException either argument is not an object
   * @param original the object before
   * @param modified the object after
   * @return the merge patch
   */
  public static MapValue create(Value original, Value modified) {
    requireNonNull(original, "original");
    requireNonNull(modified, "modified");
    if (!(original instanceof MapValue o) || !(modified instanceof MapValue m)) {
      throw new IllegalArgumentException("a merge patch can only be created between two objects,"
          + " got " + original.kind() + " and " + modified.kind());
    }
    return diff(o, m);
  }

  private static MapValue mergeObjects(MapValue document, MapValue patch) {
    MapValue.Builder out = null;
    for (int i = 0; i < patch.size(); i++) {
      String key = patch.keyAt(i);
      Value value = patch.valueAt(i);
      Value current = document.getOrNull(key);
      if (value instanceof NullValue) {
        if (current != null) {
          out = out != null ? out : document.toBuilder();
          out.remove(key);
        }
        continue;
      }
      Value merged;
      if (current == null || current instanceof NullValue) {
        merged = prune(value);
      } else if (!(current instanceof MapValue c)) {
        merged = prune(value);
      } else if (!(value instanceof MapValue p)) {
        // evanphx returns a non-object patch value as it is here, without pruning.
        merged = value;
      } else {
        merged = mergeObjects(c, p);
      }
      if (merged != current) {
        out = out != null ? out : document.toBuilder();
        out.put(key, merged);
      }
    }
    return out == null ? document : out.build();
  }

  /** Removes null members of objects, recursively (null array items stay). */
  private static Value prune(Value value) {
    if (value instanceof MapValue m) {
      MapValue.Builder out = null;
      for (int i = 0; i < m.size(); i++) {
        Value v = m.valueAt(i);
        Value pruned = v instanceof NullValue ? null : prune(v);
        if (pruned != v && out == null) {
          out = MapValue.builder(m.size());
          for (int j = 0; j < i; j++) {
            out.put(m.keyAt(j), m.valueAt(j));
          }
        }
        if (out != null && pruned != null) {
          out.put(m.keyAt(i), pruned);
        }
      }
      return out == null ? m : out.build();
    }
    if (value instanceof ListValue l) {
      ListValue.Builder out = null;
      for (int i = 0; i < l.size(); i++) {
        Value v = l.get(i);
        Value pruned = prune(v);
        if (pruned != v && out == null) {
          out = ListValue.builder(l.size());
          for (int j = 0; j < i; j++) {
            out.add(l.get(j));
          }
        }
        if (out != null) {
          out.add(pruned);
        }
      }
      return out == null ? l : out.build();
    }
    return value;
  }

  private static MapValue diff(MapValue original, MapValue modified) {
    MapValue.Builder into = MapValue.builder();
    for (int i = 0; i < modified.size(); i++) {
      String key = modified.keyAt(i);
      Value after = modified.valueAt(i);
      Value before = original.getOrNull(key);
      if (before == null || !sameType(before, after)) {
        into.put(key, after);
      } else if (before instanceof MapValue b) {
        MapValue nested = diff(b, (MapValue) after);
        if (nested.size() > 0) {
          into.put(key, nested);
        }
      } else if (!matches(before, after)) {
        into.put(key, after);
      }
    }
    for (int i = 0; i < original.size(); i++) {
      if (!modified.containsKey(original.keyAt(i))) {
        into.put(original.keyAt(i), Value.nullValue());
      }
    }
    return into.build();
  }

  /** Same Go type after encoding/json decoding: every number is a float64. */
  private static boolean sameType(Value a, Value b) {
    return a.kind() == b.kind() || (isNumber(a) && isNumber(b));
  }

  private static boolean isNumber(Value v) {
    return v instanceof IntegerValue || v instanceof FloatValue;
  }

  private static boolean matches(Value a, Value b) {
    if (!sameType(a, b)) {
      return false;
    }
    if (a instanceof IntegerValue x && b instanceof IntegerValue y) {
      return x.value() == y.value();
    }
    if (isNumber(a)) {
      return number(a) == number(b);
    }
    if (a instanceof MapValue x) {
      MapValue y = (MapValue) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < y.size(); i++) {
        Value xv = x.getOrNull(y.keyAt(i));
        if (xv == null || !matches(xv, y.valueAt(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof ListValue x) {
      ListValue y = (ListValue) b;
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!matches(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  private static double number(Value v) {
    return v instanceof IntegerValue i ? (double) i.value() : ((FloatValue) v).value();
  }
}
