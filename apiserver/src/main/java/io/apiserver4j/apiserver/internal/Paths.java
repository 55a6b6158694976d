package io.apiserver4j.apiserver.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.function.UnaryOperator;

/** Copy-on-write access to nested map fields of an object, by a list of field names. */
public final class Paths {
  private Paths() {}

  /** The value at {@code path}, or null when a step is missing or not a map. */
  public static Value get(MapValue obj, String... path) {
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

  public static MapValue getMap(MapValue obj, String... path) {
    return get(obj, path) instanceof MapValue m ? m : null;
  }

  /** The object with {@code value} at {@code path}; missing (or non-map) maps on the way are created. */
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

  /** The object with {@code value} at {@code path} unless something non-null is there already. */
  public static MapValue setDefault(MapValue obj, Value value, String... path) {
    Value cur = get(obj, path);
    if (cur != null && !cur.isNull()) {
      return obj;
    }
    return set(obj, value, path);
  }

  /** The object without the field at {@code path}. */
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

  /** Applies {@code f} to the map at {@code path}, if there is one. */
  public static MapValue updateMap(MapValue obj, UnaryOperator<MapValue> f, String... path) {
    MapValue target = getMap(obj, path);
    if (target == null) {
      return obj;
    }
    MapValue updated = f.apply(target);
    return updated == target ? obj : set(obj, updated, path);
  }

  /** Applies {@code f} to every map item of the list at {@code path}, if there is one. */
  public static MapValue updateListItems(MapValue obj, UnaryOperator<MapValue> f, String... path) {
    if (!(get(obj, path) instanceof ListValue l)) {
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

  /** Parses a CRD-style JSON path ({@code .spec.replicas}) into field names. */
  public static String[] parseDotted(String path) {
    return path.substring(1).split("\\.");
  }
}
