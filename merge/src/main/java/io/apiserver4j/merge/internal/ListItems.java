/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.Key;
import io.apiserver4j.fieldpath.KeyField;
import io.apiserver4j.fieldpath.PathElement;
import io.apiserver4j.fieldpath.SetMember;
import java.util.Arrays;
import java.util.List;

/** Identity of associative-list items, as SMD's {@code listItemToPathElement} defines it. */
final class ListItems {
  private ListItems() {}

  /**
   * The path element of {@code child} in the associative list {@code t}: a {@link Key} of its key
   * fields (defaults filling in missing ones) or, for sets, a {@link SetMember}. Returns a
   * {@code String} error message instead when the item cannot be identified.
   */
  static Object element(ListNode t, Value child) {
    if (!t.associative) {
      return "invalid indexing of non-associative list";
    }
    String[] keys = t.keys;
    if (keys.length > 0) {
      if (child.isNull()) {
        return "associative list with keys may not have a null element";
      }
      if (!(child instanceof MapValue m)) {
        return "associative list with keys may not have non-map elements";
      }
      if (keys.length == 1) {
        Value v = m.getOrNull(keys[0]);
        if (v == null) {
          Object d = defaultOf(t, 0);
          if (d instanceof String err) {
            return err;
          }
          if (d == null) {
            return omitsAllKeys(keys);
          }
          v = (Value) d;
        }
        return new Key(List.of(new KeyField(keys[0], v)));
      }
      KeyField[] fields = new KeyField[keys.length];
      int n = 0;
      for (int i = 0; i < keys.length; i++) {
        Value v = m.getOrNull(keys[i]);
        if (v == null) {
          Object d = defaultOf(t, i);
          if (d instanceof String err) {
            return err;
          }
          if (d == null) {
            // An omitted key without default is simply not part of the identity.
            continue;
          }
          v = (Value) d;
        }
        fields[n++] = new KeyField(keys[i], v);
      }
      if (n == 0) {
        return omitsAllKeys(keys);
      }
      return new Key(Arrays.asList(n == fields.length ? fields : Arrays.copyOf(fields, n)));
    }
    if (child instanceof MapValue) {
      return "associative list without keys has an element that's a map type";
    }
    if (child instanceof ListValue) {
      return "not supported: associative list with lists as elements";
    }
    if (child.isNull()) {
      return "associative list without keys has an element that's an explicit null";
    }
    return new SetMember(child);
  }

  private static Object defaultOf(ListNode t, int i) {
    ListNode.KeyDefaults d = t.keyDefaults();
    if (d.error != null) {
      return "couldn't find default value for " + t.keys[i] + ": " + d.error;
    }
    return d.defaults[i];
  }

  private static String omitsAllKeys(String[] keys) {
    StringBuilder sb = new StringBuilder(
        "associative list with keys has an element that omits all key fields [");
    for (int i = 0; i < keys.length; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append('"').append(keys[i]).append('"');
    }
    return sb.append("] (and doesn't have default values for any key fields)").toString();
  }
}
