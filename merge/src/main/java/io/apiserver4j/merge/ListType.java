/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;

/**
 * A list type (SMD's {@code List}). {@link ElementRelationship#ATOMIC} lists are one leaf;
 * {@link ElementRelationship#ASSOCIATIVE} lists of maps are identified by {@code keys}, and
 * associative lists of scalars are sets.
 *
 * @param elementType the type of every item
 * @param elementRelationship {@code ATOMIC} or {@code ASSOCIATIVE}
 * @param keys the key fields of an associative list of maps, in schema order; empty otherwise
 */
public record ListType(TypeRef elementType, ElementRelationship elementRelationship, List<String> keys) {
  /**
   * Checks the components and copies the keys.
   *
   * @param elementType see the record component
   * @param elementRelationship see the record component
   * @param keys see the record component
   * @throws NullPointerException when a component is null
   * @throws SchemaException when the relationship is separable or a key is repeated
   */
  public ListType {
    requireNonNull(elementType, "elementType");
    requireNonNull(elementRelationship, "elementRelationship");
    requireNonNull(keys, "keys");
    keys = List.copyOf(keys);
    if (elementRelationship == ElementRelationship.SEPARABLE) {
      throw new SchemaException(
          "list elementRelationship must be atomic or associative, not separable");
    }
    if (new HashSet<>(keys).size() != keys.size()) {
      throw new SchemaException("list keys must be unique: " + keys);
    }
  }

  /**
   * An atomic list: one leaf, replaced as a whole.
   *
   * @param elementType the type of every item
   * @return the list type
   */
  public static ListType atomic(TypeRef elementType) {
    return new ListType(elementType, ElementRelationship.ATOMIC, List.of());
  }

  /**
   * An associative list: a set when {@code keys} is empty, a map-like list otherwise.
   *
   * @param elementType the type of every item
   * @param keys the key fields of map items, unique
   * @return the list type
   * @throws SchemaException when a key is repeated
   */
  public static ListType associative(TypeRef elementType, List<String> keys) {
    return new ListType(elementType, ElementRelationship.ASSOCIATIVE, keys);
  }
}
