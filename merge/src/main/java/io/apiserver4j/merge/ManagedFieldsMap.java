/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Field ownership of one object: manager name to {@link VersionedSet} (SMD's
 * {@code fieldpath.ManagedFields}). Keeps insertion order; equality ignores it.
 *
 * <p>Immutable and thread-safe; {@link #with} and {@link #without} return modified copies.
 */
public final class ManagedFieldsMap {
  private static final ManagedFieldsMap EMPTY = new ManagedFieldsMap(new LinkedHashMap<>());

  private final Map<String, VersionedSet> managers;

  private ManagedFieldsMap(LinkedHashMap<String, VersionedSet> managers) {
    this.managers = Collections.unmodifiableMap(managers);
  }

  /**
   * The map with no managers.
   *
   * @return the shared empty map
   */
  public static ManagedFieldsMap empty() {
    return EMPTY;
  }

  /**
   * A copy of {@code managers} in its iteration order.
   *
   * @param managers the sets by manager name
   * @return the map
   * @throws NullPointerException when a name or set is null
   */
  public static ManagedFieldsMap of(Map<String, VersionedSet> managers) {
    requireNonNull(managers, "managers");
    LinkedHashMap<String, VersionedSet> m = new LinkedHashMap<>();
    managers.forEach((k, v) -> m.put(requireNonNull(k, "manager name"), requireNonNull(v, "set of " + k)));
    return m.isEmpty() ? EMPTY : new ManagedFieldsMap(m);
  }

  /**
   * The fields a manager owns.
   *
   * @param manager the manager name
   * @return the set; empty when the manager has none
   */
  public Optional<VersionedSet> get(String manager) {
    requireNonNull(manager, "manager");
    return Optional.ofNullable(managers.get(manager));
  }

  /**
   * Whether a manager has an entry.
   *
   * @param manager the manager name
   * @return true when {@link #get} is present
   */
  public boolean contains(String manager) {
    return managers.containsKey(manager);
  }

  /**
   * The manager names in insertion order.
   *
   * @return an unmodifiable set
   */
  public Set<String> managers() {
    return managers.keySet();
  }

  /**
   * A read-only view in insertion order.
   *
   * @return the unmodifiable map
   */
  public Map<String, VersionedSet> asMap() {
    return managers;
  }

  /**
   * The number of managers.
   *
   * @return the number of entries
   */
  public int size() {
    return managers.size();
  }

  /**
   * Whether no manager owns anything.
   *
   * @return true when there are no entries
   */
  public boolean isEmpty() {
    return managers.isEmpty();
  }

  /**
   * A copy with {@code manager}'s entry set (replaced in place, or appended).
   *
   * @param manager the manager name
   * @param set its fields
   * @return the new map; this one is unchanged
   */
  public ManagedFieldsMap with(String manager, VersionedSet set) {
    requireNonNull(manager, "manager");
    requireNonNull(set, "set");
    LinkedHashMap<String, VersionedSet> m = new LinkedHashMap<>(managers);
    m.put(manager, set);
    return new ManagedFieldsMap(m);
  }

  /**
   * A copy without {@code manager}.
   *
   * @param manager the manager name
   * @return the new map; this one when the manager has no entry
   */
  public ManagedFieldsMap without(String manager) {
    requireNonNull(manager, "manager");
    if (!managers.containsKey(manager)) {
      return this;
    }
    LinkedHashMap<String, VersionedSet> m = new LinkedHashMap<>(managers);
    m.remove(manager);
    return m.isEmpty() ? EMPTY : new ManagedFieldsMap(m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ManagedFieldsMap m && managers.equals(m.managers);
  }

  @Override
  public int hashCode() {
    return managers.hashCode();
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    managers.forEach((k, v) -> sb.append(k).append(": ").append(v.apiVersion())
        .append(v.applied() ? " (applied)" : "").append('\n').append(v.set()).append('\n'));
    return sb.toString();
  }
}
