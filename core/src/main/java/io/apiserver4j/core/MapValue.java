/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable map from string keys to values that keeps insertion order. Keys are unique.
 *
 * <p>Stored as two parallel arrays (compact on the heap); lookups scan small maps and use a
 * lazily built hash index for larger ones. Equality ignores order, as JSON object equality does.
 */
public final class MapValue implements Value {
  private static final MapValue EMPTY = new MapValue(new String[0], new Value[0]);
  private static final int INDEX_THRESHOLD = 12;

  private final String[] keys;
  private final Value[] values;
  private volatile HashMap<String, Integer> index;
  private int hash;

  private MapValue(String[] keys, Value[] values) {
    this.keys = keys;
    this.values = values;
  }

  /**
   * The empty map.
   *
   * @return the shared empty map
   */
  public static MapValue empty() {
    return EMPTY;
  }

  /**
   * Copies {@code entries} in their iteration order.
   *
   * @param entries the entries
   * @return the map
   */
  public static MapValue of(Map<String, ? extends Value> entries) {
    Builder b = new Builder(entries.size());
    entries.forEach(b::put);
    return b.build();
  }

  /**
   * A builder for a map.
   *
   * @return a new, empty builder
   */
  public static Builder builder() {
    return new Builder(8);
  }

  /**
   * A builder for a map of about {@code expectedSize} entries.
   *
   * @param expectedSize the expected number of entries
   * @return a new, empty builder
   */
  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /**
   * The number of entries.
   *
   * @return the size
   */
  public int size() {
    return keys.length;
  }

  /**
   * Whether the map has no entries.
   *
   * @return true when empty
   */
  public boolean isEmpty() {
    return keys.length == 0;
  }

  /**
   * The key at {@code i} in insertion order.
   *
   * @param i the position, below {@link #size()}
   * @return the key
   */
  public String keyAt(int i) {
    return keys[i];
  }

  /**
   * The value at {@code i} in insertion order.
   *
   * @param i the position, below {@link #size()}
   * @return the value
   */
  public Value valueAt(int i) {
    return values[i];
  }

  /**
   * The position of {@code key}.
   *
   * @param key the key
   * @return the position in insertion order, or -1 when absent
   */
  public int indexOf(String key) {
    if (keys.length < INDEX_THRESHOLD) {
      for (int i = 0; i < keys.length; i++) {
        if (keys[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }
    HashMap<String, Integer> idx = index;
    if (idx == null) {
      idx = new HashMap<>(keys.length * 2);
      for (int i = 0; i < keys.length; i++) {
        idx.put(keys[i], i);
      }
      index = idx;
    }
    Integer i = idx.get(key);
    return i == null ? -1 : i;
  }

  /**
   * Whether the map has {@code key}.
   *
   * @param key the key
   * @return true when present
   */
  public boolean containsKey(String key) {
    return indexOf(key) >= 0;
  }

  /**
   * The value of {@code key}.
   *
   * @param key the key
   * @return the value; empty when the key is absent
   */
  public Optional<Value> get(String key) {
    int i = indexOf(key);
    return i < 0 ? Optional.empty() : Optional.of(values[i]);
  }

  /**
   * The value of {@code key}, or {@code null} when absent. For hot paths inside the library.
   *
   * @param key the key
   * @return the value, or null
   */
  public Value getOrNull(String key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  /**
   * Calls {@code action} for every entry, in insertion order.
   *
   * @param action the action
   */
  public void forEach(BiConsumer<String, Value> action) {
    for (int i = 0; i < keys.length; i++) {
      action.accept(keys[i], values[i]);
    }
  }

  /**
   * A read-only {@link Map} view in insertion order.
   *
   * @return the view
   */
  public Map<String, Value> asMap() {
    return new AbstractMap<>() {
      @Override
      public Set<Entry<String, Value>> entrySet() {
        return new AbstractSet<>() {
          @Override
          public Iterator<Entry<String, Value>> iterator() {
            return new Iterator<>() {
              int i;

              @Override
              public boolean hasNext() {
                return i < keys.length;
              }

              @Override
              public Entry<String, Value> next() {
                if (i >= keys.length) {
                  throw new NoSuchElementException();
                }
                Entry<String, Value> e = Map.entry(keys[i], values[i]);
                i++;
                return e;
              }
            };
          }

          @Override
          public int size() {
            return keys.length;
          }
        };
      }

      @Override
      public Value get(Object key) {
        return key instanceof String s ? getOrNull(s) : null;
      }

      @Override
      public boolean containsKey(Object key) {
        return key instanceof String s && indexOf(s) >= 0;
      }
    };
  }

  /**
   * A copy with {@code key} set to {@code value}: replaced in place, or appended.
   *
   * @param key the key
   * @param value the value
   * @return the new map
   */
  public MapValue with(String key, Value value) {
    int i = indexOf(key);
    if (i >= 0) {
      if (values[i].equals(value)) {
        return this;
      }
      Value[] v = values.clone();
      v[i] = value;
      return new MapValue(keys, v);
    }
    String[] k = Arrays.copyOf(keys, keys.length + 1);
    Value[] v = Arrays.copyOf(values, values.length + 1);
    k[keys.length] = key;
    v[values.length] = value;
    return new MapValue(k, v);
  }

  /**
   * A copy without {@code key}.
   *
   * @param key the key
   * @return the new map; this map when the key is absent
   */
  public MapValue without(String key) {
    int i = indexOf(key);
    if (i < 0) {
      return this;
    }
    String[] k = new String[keys.length - 1];
    Value[] v = new Value[values.length - 1];
    System.arraycopy(keys, 0, k, 0, i);
    System.arraycopy(keys, i + 1, k, i, keys.length - i - 1);
    System.arraycopy(values, 0, v, 0, i);
    System.arraycopy(values, i + 1, v, i, values.length - i - 1);
    return new MapValue(k, v);
  }

  /**
   * A builder pre-filled with this map's entries.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder(keys.length + 4);
    for (int i = 0; i < keys.length; i++) {
      b.put(keys[i], values[i]);
    }
    return b;
  }

  @Override
  public Kind kind() {
    return Kind.MAP;
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof MapValue m && Walks.deepEquals(this, m));
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

  /** Whether the hash is computed (children first, so no walk ever recurses). */
  boolean hashCached() {
    return hash != 0;
  }

  /** Computes the hash from the members' hashes, which the caller has cached. */
  void cacheShallowHash() {
    int h = 0;
    for (int i = 0; i < keys.length; i++) {
      h += keys[i].hashCode() ^ values[i].hashCode();
    }
    hash = h | 1;
  }

  /** The position of {@code key}, or -1; position {@code hint} is tried first. */
  int indexOf(String key, int hint) {
    return hint < keys.length && keys[hint].equals(key) ? hint : indexOf(key);
  }

  @Override
  public String toString() {
    return Json.write(this);
  }

  /**
   * Builds a map; not thread-safe, single use. {@link #put} replaces an existing key in place;
   * {@link #putNew} rejects duplicates, as the decoders need.
   */
  public static final class Builder {
    private String[] keys;
    private Value[] values;
    private int size;
    private HashMap<String, Integer> index;

    private Builder(int capacity) {
      keys = new String[Math.max(capacity, 1)];
      values = new Value[Math.max(capacity, 1)];
    }

    private int find(String key) {
      if (index != null) {
        Integer i = index.get(key);
        return i == null ? -1 : i;
      }
      for (int i = 0; i < size; i++) {
        if (keys[i].equals(key)) {
          return i;
        }
      }
      return -1;
    }

    /**
     * Whether {@code key} was added.
     *
     * @param key the key
     * @return true when present
     */
    /**
     * Whether {@code key} was added.
     *
     * @param key the key
     * @return true when present
     */
    public boolean containsKey(String key) {
      return find(key) >= 0;
    }

    /**
     * Sets {@code key}; an existing key keeps its position.
     *
     * @param key the key
     * @param value the value
     * @return this builder
     */
    public Builder put(String key, Value value) {
      if (key == null || value == null) {
        throw new IllegalArgumentException("map key and value must not be null (key " + key + ")");
      }
      int i = find(key);
      if (i >= 0) {
        values[i] = value;
        return this;
      }
      append(key, value);
      return this;
    }

    /**
     * Adds {@code key}, which must not be present yet.
     *
     * @param key the key
     * @param value the value
     * @return this builder
     * @throws IllegalArgumentException when the key is present
     */
    public Builder putNew(String key, Value value) {
      if (key == null || value == null) {
        throw new IllegalArgumentException("map key and value must not be null (key " + key + ")");
      }
      if (find(key) >= 0) {
        throw new IllegalArgumentException("duplicate map key " + Json.quote(key));
      }
      append(key, value);
      return this;
    }

    /**
     * Removes {@code key} if present.
     *
     * @param key the key
     * @return this builder
     */
    public Builder remove(String key) {
      int i = find(key);
      if (i >= 0) {
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        System.arraycopy(values, i + 1, values, i, size - i - 1);
        size--;
        keys[size] = null;
        values[size] = null;
        index = null;
        if (size >= INDEX_THRESHOLD) {
          reindex();
        }
      }
      return this;
    }

    private void append(String key, Value value) {
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, size * 2);
        values = Arrays.copyOf(values, size * 2);
      }
      keys[size] = key;
      values[size] = value;
      if (index != null) {
        index.put(key, size);
      }
      size++;
      if (index == null && size >= INDEX_THRESHOLD) {
        reindex();
      }
    }

    private void reindex() {
      index = new HashMap<>(size * 2);
      for (int i = 0; i < size; i++) {
        index.put(keys[i], i);
      }
    }

    /**
     * The number of entries so far.
     *
     * @return the size
     */
    public int size() {
      return size;
    }

    /**
     * Builds the map.
     *
     * @return the immutable map
     */
    public MapValue build() {
      if (size == 0) {
        return EMPTY;
      }
      return new MapValue(
          size == keys.length ? keys : Arrays.copyOf(keys, size),
          size == values.length ? values : Arrays.copyOf(values, size));
    }
  }

  /**
   * Convenience for tests and examples: builds a map from alternating keys and values.
   *
   * @param keysAndValues {@code String} keys alternating with {@code Value}s
   * @return the map
   * @throws IllegalArgumentException when the number of arguments is odd
   * @throws ClassCastException when a key is not a string or a value not a {@code Value}
   */
  public static MapValue ofEntries(Object... keysAndValues) {
    if (keysAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("odd number of arguments: keys and values must pair up");
    }
    LinkedHashMap<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      m.put((String) keysAndValues[i], (Value) keysAndValues[i + 1]);
    }
    return of(m);
  }
}
