/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Nested fields of a value by a list of field names: null-tolerant reads that give Go's zero
 * values for absent fields (as kube sees an object after decoding it), and copy-on-write
 * changes. The one accessor of object paths; {@link Meta} builds the metadata accessors on it.
 */
public final class Nested {
  private Nested() {}

  /**
   * The value at {@code path}.
   *
   * @param obj the root value
   * @param path the field names from the root
   * @return the value, or null when a step is missing or not a map
   */
  public static Value getOrNull(Value obj, String... path) {
    Value cur = obj;
    for (String p : path) {
      if (!(cur instanceof MapValue m)) {
        return null;
      }
      cur = m.getOrNull(p);
      if (cur == null) {
        return null;
      }
    }
    return cur;
  }

  /**
   * The map at {@code path}.
   *
   * @param obj the root value
   * @param path the field names from the root
   * @return the map, or null when there is none
   */
  public static MapValue mapOrNull(Value obj, String... path) {
    return getOrNull(obj, path) instanceof MapValue m ? m : null;
  }

  /**
   * The string at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the string; empty when absent or not a string
   */
  public static String str(Value v, String... path) {
    return getOrNull(v, path) instanceof StringValue s ? s.value() : "";
  }

  /**
   * The integer at {@code path} (a float is truncated).
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the integer; 0 when absent
   */
  public static long integer(Value v, String... path) {
    Value x = getOrNull(v, path);
    if (x instanceof IntegerValue i) {
      return i.value();
    }
    return x instanceof FloatValue f ? (long) f.value() : 0;
  }

  /**
   * Whether a non-null value is at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return true when present
   */
  public static boolean has(Value v, String... path) {
    Value x = getOrNull(v, path);
    return x != null && !x.isNull();
  }

  /**
   * The boolean at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the boolean; false when absent
   */
  public static boolean bool(Value v, String... path) {
    return getOrNull(v, path) instanceof BooleanValue b && b.value();
  }

  /**
   * The items of the list at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the items; empty when absent
   */
  public static List<Value> list(Value v, String... path) {
    return getOrNull(v, path) instanceof ListValue l ? l.items() : List.of();
  }

  /**
   * The map at {@code path}.
   *
   * @param v the root value
   * @param path the field names from the root
   * @return the map; empty when absent
   */
  public static MapValue map(Value v, String... path) {
    return getOrNull(v, path) instanceof MapValue m ? m : MapValue.empty();
  }

  /**
   * The object with {@code value} at {@code path}; missing (or non-map) maps on the way are created.
   *
   * @param obj the object; not changed
   * @param value the value
   * @param path the field names from the root
   * @return the new object
   */
  public static MapValue set(MapValue obj, Value value, String... path) {
    return set(obj, value, path, 0);
  }

  private static MapValue set(MapValue m, Value value, String[] path, int i) {
    if (i == path.length - 1) {
      Value old = m.getOrNull(path[i]);
      return value.equals(old) ? m : m.with(path[i], value);
    }
    MapValue child = m.getOrNull(path[i]) instanceof MapValue c ? c : MapValue.empty();
    MapValue updated = set(child, value, path, i + 1);
    return updated == child && m.containsKey(path[i]) ? m : m.with(path[i], updated);
  }

  /**
   * The object with {@code value} at {@code path} unless something non-null is there already.
   *
   * @param obj the object; not changed
   * @param value the default
   * @param path the field names from the root
   * @return the new object, or {@code obj} when already set
   */
  public static MapValue setDefault(MapValue obj, Value value, String... path) {
    Value cur = getOrNull(obj, path);
    if (cur != null && !cur.isNull()) {
      return obj;
    }
    return set(obj, value, path);
  }

  /**
   * The object without the field at {@code path}.
   *
   * @param obj the object; not changed
   * @param path the field names from the root
   * @return the new object
   */
  public static MapValue remove(MapValue obj, String... path) {
    return remove(obj, path, 0);
  }

  private static MapValue remove(MapValue m, String[] path, int i) {
    if (!m.containsKey(path[i])) {
      return m;
    }
    if (i == path.length - 1) {
      return m.without(path[i]);
    }
    if (!(m.getOrNull(path[i]) instanceof MapValue child)) {
      return m;
    }
    MapValue updated = remove(child, path, i + 1);
    return updated == child ? m : m.with(path[i], updated);
  }

  /**
   * Applies {@code f} to the map at {@code path}, if there is one.
   *
   * @param obj the object; not changed
   * @param f the function
   * @param path the field names from the root
   * @return the new object
   */
  public static MapValue updateMap(MapValue obj, UnaryOperator<MapValue> f, String... path) {
    MapValue target = mapOrNull(obj, path);
    if (target == null) {
      return obj;
    }
    MapValue updated = f.apply(target);
    return updated == target ? obj : set(obj, updated, path);
  }

  /**
   * Applies {@code f} to every map item of the list at {@code path}, if there is one.
   *
   * @param obj the object; not changed
   * @param f the function
   * @param path the field names from the root
   * @return the new object
   */
  public static MapValue updateListItems(MapValue obj, UnaryOperator<MapValue> f, String... path) {
    if (!(getOrNull(obj, path) instanceof ListValue l)) {
      return obj;
    }
    ListValue.Builder b = ListValue.builder(l.size());
    boolean changed = false;
    for (Value item : l.items()) {
      if (item instanceof MapValue m) {
        MapValue u = f.apply(m);
        changed |= u != m;
        b.add(u);
      } else {
        b.add(item);
      }
    }
    return changed ? set(obj, b.build(), path) : obj;
  }

  /**
   * Parses a CRD-style JSON path ({@code .spec.replicas}) into field names.
   *
   * @param path the dotted path
   * @return the field names
   */
  public static String[] parseDotted(String path) {
    return path.substring(1).split("\\.");
  }
}
