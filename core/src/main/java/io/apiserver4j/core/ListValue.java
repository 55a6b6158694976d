/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** An immutable list of values. */
public final class ListValue implements Value {
  private static final ListValue EMPTY = new ListValue(new Value[0]);

  private final Value[] items;
  private final List<Value> view;
  private int hash;

  private ListValue(Value[] items) {
    this.items = items;
    this.view = Collections.unmodifiableList(Arrays.asList(items));
  }

  /**
   * The empty list.
   *
   * @return the shared empty list
   */
  public static ListValue empty() {
    return EMPTY;
  }

  /**
   * A list of the strings {@code values}, in their order.
   *
   * @param values the strings
   * @return the list of string values
   */
  public static ListValue ofStrings(java.util.Collection<String> values) {
    Builder b = builder(values.size());
    values.forEach(v -> b.add(Value.of(v)));
    return b.build();
  }

  /**
   * A list of these items.
   *
   * @param items the items, copied
   * @return the list
   */
  public static ListValue of(List<? extends Value> items) {
    Value[] array = items.toArray(new Value[0]);
    for (int i = 0; i < array.length; i++) {
      if (array[i] == null) {
        throw new IllegalArgumentException("list item " + i + " is null; use Value.nullValue()");
      }
    }
    return array.length == 0 ? EMPTY : new ListValue(array);
  }

  /** Takes ownership of {@code items}; the caller must not change the array afterwards. */
  static ListValue wrap(Value[] items) {
    return items.length == 0 ? EMPTY : new ListValue(items);
  }

  /**
   * The items.
   *
   * @return the items, as an unmodifiable list
   */
  public List<Value> items() {
    return view;
  }

  /**
   * The number of items.
   *
   * @return the size
   */
  public int size() {
    return items.length;
  }

  /**
   * Whether the list has no items.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return items.length == 0;
  }

  /**
   * The item at a position.
   *
   * @param index the position, from 0
   * @return the item
   * @throws IndexOutOfBoundsException when out of range
   */
  public Value get(int index) {
    return items[index];
  }

  @Override
  public Kind kind() {
    return Kind.LIST;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof ListValue l && Walks.deepEquals(this, l));
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      Walks.cacheHashes(this);
      h = hash;
    }
    return h;
  }

  boolean hashCached() {
    return hash != 0;
  }

  /** Computes the hash from the items' hashes, which the caller has cached. */
  void cacheShallowHash() {
    hash = Arrays.hashCode(items) | 1;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  /** A builder; not thread-safe. */
  /** A function of a list's items and their indexes, for {@link #map}. */
  @FunctionalInterface
  public interface ItemMapper {
    /**
     * Maps one item.
     *
     * @param index the item's position
     * @param item the item
     * @return the new item, or {@code item} itself when unchanged
     */
    Value apply(int index, Value item);
  }

  /**
   * This list with {@code f} applied to every item, copied only if an item changed: when every
   * result is the item itself, the result is this list (the walks over large objects rely on it
   * to share unchanged subtrees and to tell that nothing changed).
   *
   * @param f the function
   * @return the mapped list; this list when no item changed
   */
  public ListValue map(ItemMapper f) {
    Builder b = null;
    for (int i = 0; i < size(); i++) {
      Value item = get(i);
      Value out = f.apply(i, item);
      if (out != item && b == null) {
        b = builder(size());
        for (int j = 0; j < i; j++) {
          b.add(get(j));
        }
      }
      if (b != null) {
        b.add(out);
      }
    }
    return b == null ? this : b.build();
  }

  /**
   * A builder for a list.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder(8);
  }

  /**
   * A builder for a list of about {@code expectedSize} items.
   *
   * @param expectedSize the expected number of items
   * @return a new, empty builder
   */
  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /** Builds a list; not thread-safe, single use. */
  public static final class Builder {
    private Value[] items;
    private int size;

    private Builder(int capacity) {
      items = new Value[Math.max(capacity, 1)];
    }

    /**
     * Appends an item.
     *
     * @param item the item
     * @return this builder
     */
    public Builder add(Value item) {
      if (item == null) {
        throw new IllegalArgumentException("list item " + size + " is null; use Value.nullValue()");
      }
      if (size == items.length) {
        items = Arrays.copyOf(items, size * 2);
      }
      items[size++] = item;
      return this;
    }

    /**
     * The number of items added.
     *
     * @return the size so far
     */
    /**
     * The number of items added.
     *
     * @return the size so far
     */
    public int size() {
      return size;
    }

    /**
     * Builds the list.
     *
     * @return the immutable list
     */
    public ListValue build() {
      return wrap(size == items.length ? items : Arrays.copyOf(items, size));
    }
  }
}
