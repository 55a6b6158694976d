/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

import dev.cel.runtime.RuntimeEquality;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;

/**
 * kube's lists with {@code x-kubernetes-list-type} {@code set} or {@code map} as its CEL values
 * ({@code unstructuredSetList}, {@code unstructuredMapList} of apiserver's
 * {@code pkg/cel/common/values.go}) treat them, and CEL equality, concatenation and {@code in}
 * as cel-go evaluates them on such values. cel-go's {@code ==} asks its left operand: a set
 * list equals a list of the same size whose every item it holds; a map list equals a list of
 * the same size whose every item has a key it holds with an equal item; {@code +} on a set list
 * appends only the items it does not hold, and on a map list replaces the items whose keys it
 * holds (in place) and appends the others. Lists and maps of other kinds compare item by item
 * and entry by entry, with these rules at every level; everything else is cel-java's equality.
 */
final class KubeLists {
  private KubeLists() {}

  /** A list of {@code x-kubernetes-list-type: set}. */
  static final class SetList extends AbstractList<Object> implements RandomAccess {
    private final List<?> items;

    SetList(List<?> items) {
      this.items = items;
    }

    @Override
    public Object get(int index) {
      return items.get(index);
    }

    @Override
    public int size() {
      return items.size();
    }
  }

  /** A list of {@code x-kubernetes-list-type: map} with its key fields. */
  static final class MapList extends AbstractList<Object> implements RandomAccess {
    private final List<?> items;
    private final List<String> keys;

    MapList(List<?> items, List<String> keys) {
      this.items = items;
      this.keys = List.copyOf(keys);
    }

    @Override
    public Object get(int index) {
      return items.get(index);
    }

    @Override
    public int size() {
      return items.size();
    }

    /**
     * The key of an item: its key fields' values. An item that is not an object of the data
     * (a map literal of the rule) has a key of its own, as in kube, where such an item's key is
     * an error value no other key equals.
     */
    Object keyOf(Object item) {
      if (!(item instanceof KubeEnvironment.DataMap m)) {
        return new Object();
      }
      Object[] key = new Object[keys.size()];
      for (int i = 0; i < key.length; i++) {
        key[i] = m.get(keys.get(i));
      }
      return Arrays.asList(key);
    }
  }

  /** CEL {@code a == b} as cel-go evaluates it on kube's values. */
  static boolean equal(RuntimeEquality base, Object a, Object b) {
    if (a instanceof SetList s && b instanceof List<?> other) {
      if (s.size() != other.size()) {
        return false;
      }
      Set<Object> held = new java.util.HashSet<>(s);
      for (Object o : other) {
        if (!held.contains(o)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof MapList m && b instanceof List<?> other) {
      if (m.size() != other.size()) {
        return false;
      }
      Map<Object, Object> byKey = new HashMap<>();
      for (Object item : m) {
        byKey.put(m.keyOf(item), item);
      }
      for (Object o : other) {
        Object mine = byKey.get(m.keyOf(o));
        if (mine == null || !equal(base, mine, o)) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!equal(base, x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Map<?, ?> x && b instanceof Map<?, ?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (Map.Entry<?, ?> e : x.entrySet()) {
        Optional<Object> other = base.findInMap(y, e.getKey());
        if (other.isEmpty() || !equal(base, e.getValue(), other.get())) {
          return false;
        }
      }
      return true;
    }
    return base.objectEquals(a, b);
  }

  /** CEL {@code a + b} on lists as cel-go evaluates it on kube's values. */
  static List<?> add(List<?> a, List<?> b) {
    if (a instanceof SetList s) {
      Set<Object> held = new LinkedHashSet<>(s);
      List<Object> out = new ArrayList<>(s);
      for (Object o : b) {
        if (held.add(o)) {
          out.add(o);
        }
      }
      return new SetList(java.util.Collections.unmodifiableList(out));
    }
    if (a instanceof MapList m) {
      List<Object> out = new ArrayList<>(m);
      Map<Object, Integer> at = new HashMap<>();
      for (int i = 0; i < out.size(); i++) {
        at.put(m.keyOf(out.get(i)), i);
      }
      for (Object o : b) {
        Integer i = at.get(m.keyOf(o));
        if (i != null) {
          out.set(i, o);
        } else {
          out.add(o);
        }
      }
      return new MapList(java.util.Collections.unmodifiableList(out), m.keys);
    }
    List<Object> out = new ArrayList<>(a.size() + b.size());
    out.addAll(a);
    out.addAll(b);
    return java.util.Collections.unmodifiableList(out);
  }

  /** CEL {@code x in list}: whether an item equals {@code x}, asking each item. */
  static boolean in(RuntimeEquality base, Object x, List<?> list) {
    for (Object item : list) {
      if (equal(base, item, x)) {
        return true;
      }
    }
    return false;
  }
}
