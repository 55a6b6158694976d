/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.Objects;
import java.util.Optional;

/**
 * The possible shapes of a type: any combination of a scalar, a list and a map. A value has this
 * type if it matches one of the present members (SMD's {@code Atom}). An atom with no member
 * accepts nothing; it is what an absent type reference resolves to.
 *
 * <p>Immutable and thread-safe.
 */
public final class Atom {
  private static final Atom EMPTY = new Atom(null, null, null);

  private final ScalarType scalar;
  private final ListType list;
  private final MapType map;

  private Atom(ScalarType scalar, ListType list, MapType map) {
    this.scalar = scalar;
    this.list = list;
    this.map = map;
  }

  /**
   * The atom with no member.
   *
   * @return the empty atom, which accepts no value
   */
  public static Atom empty() {
    return EMPTY;
  }

  /**
   * An atom that is only a scalar.
   *
   * @param scalar the scalar kind
   * @return the atom
   */
  public static Atom scalar(ScalarType scalar) {
    return new Atom(requireNonNull(scalar, "scalar"), null, null);
  }

  /**
   * An atom that is only a list.
   *
   * @param list the list type
   * @return the atom
   */
  public static Atom list(ListType list) {
    return new Atom(null, requireNonNull(list, "list"), null);
  }

  /**
   * An atom that is only a map.
   *
   * @param map the map type
   * @return the atom
   */
  public static Atom map(MapType map) {
    return new Atom(null, null, requireNonNull(map, "map"));
  }

  /**
   * A copy with the scalar member set; the other members are kept (SMD atoms may have several).
   *
   * @param scalar the scalar kind
   * @return the new atom
   */
  public Atom withScalar(ScalarType scalar) {
    return new Atom(requireNonNull(scalar, "scalar"), list, map);
  }

  /**
   * A copy with the list member set; the other members are kept.
   *
   * @param list the list type
   * @return the new atom
   */
  public Atom withList(ListType list) {
    return new Atom(scalar, requireNonNull(list, "list"), map);
  }

  /**
   * A copy with the map member set; the other members are kept.
   *
   * @param map the map type
   * @return the new atom
   */
  public Atom withMap(MapType map) {
    return new Atom(scalar, list, requireNonNull(map, "map"));
  }

  /**
   * The scalar member.
   *
   * @return the scalar kind; empty when the atom accepts no scalar
   */
  public Optional<ScalarType> scalar() {
    return Optional.ofNullable(scalar);
  }

  /**
   * The list member.
   *
   * @return the list type; empty when the atom accepts no list
   */
  public Optional<ListType> list() {
    return Optional.ofNullable(list);
  }

  /**
   * The map member.
   *
   * @return the map type; empty when the atom accepts no map
   */
  public Optional<MapType> map() {
    return Optional.ofNullable(map);
  }

  /**
   * Whether no member is present.
   *
   * @return true for an atom that accepts no value
   */
  public boolean isEmpty() {
    return scalar == null && list == null && map == null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Atom a
        && Objects.equals(scalar, a.scalar)
        && Objects.equals(list, a.list)
        && Objects.equals(map, a.map);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scalar, list, map);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Atom{");
    String sep = "";
    if (scalar != null) {
      sb.append("scalar=").append(scalar.smdName());
      sep = ", ";
    }
    if (list != null) {
      sb.append(sep).append("list=").append(list);
      sep = ", ";
    }
    if (map != null) {
      sb.append(sep).append("map=").append(map);
    }
    return sb.append('}').toString();
  }
}
