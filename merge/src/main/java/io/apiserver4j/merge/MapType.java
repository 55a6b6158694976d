/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A map or struct type (SMD's {@code Map}): declared {@code fields}, the type of any other key
 * ({@code elementType}, {@link TypeRef#none()} when undeclared keys are not allowed), optional
 * unions, and whether the map is one leaf ({@link ElementRelationship#ATOMIC}) or granular
 * ({@link ElementRelationship#SEPARABLE}, the default). As in SMD, any relationship other than
 * atomic makes a map granular ({@code associative} is accepted and means the same as separable).
 *
 * <p>Immutable and thread-safe.
 */
public final class MapType {
  private final List<StructField> fields;
  private final List<Union> unions;
  private final TypeRef elementType;
  private final ElementRelationship elementRelationship;
  private final Map<String, StructField> byName;

  private MapType(
      List<StructField> fields,
      List<Union> unions,
      TypeRef elementType,
      ElementRelationship elementRelationship) {
    this.fields = List.copyOf(requireNonNull(fields, "fields"));
    this.unions = List.copyOf(requireNonNull(unions, "unions"));
    this.elementType = requireNonNull(elementType, "elementType");
    this.elementRelationship = requireNonNull(elementRelationship, "elementRelationship");
    Map<String, StructField> m = new HashMap<>(Math.max(4, this.fields.size() * 2));
    for (StructField f : this.fields) {
      if (m.put(f.name(), f) != null) {
        throw new SchemaException("duplicate field name \"" + f.name() + "\"");
      }
    }
    this.byName = m;
  }

  /**
   * A fully specified map type.
   *
   * @param fields the declared fields, unique by name
   * @param unions the unions among the fields
   * @param elementType the type of keys that are not declared fields; {@link TypeRef#none()} for none
   * @param elementRelationship how the map merges: separable (granular) or atomic
   * @return the map type
   * @throws SchemaException when a field name is repeated
   */
  public static MapType of(
      List<StructField> fields,
      List<Union> unions,
      TypeRef elementType,
      ElementRelationship elementRelationship) {
    return new MapType(fields, unions, elementType, elementRelationship);
  }

  /**
   * A granular struct with the given fields and no other keys.
   *
   * @param fields the declared fields, unique by name
   * @return the map type
   * @throws SchemaException when a field name is repeated
   */
  public static MapType struct(List<StructField> fields) {
    return new MapType(fields, List.of(), TypeRef.none(), ElementRelationship.SEPARABLE);
  }

  /**
   * A map whose every value has type {@code elementType}.
   *
   * @param elementType the type of every value
   * @param relationship how the map merges
   * @return the map type, without declared fields
   */
  public static MapType mapOf(TypeRef elementType, ElementRelationship relationship) {
    return new MapType(List.of(), List.of(), elementType, relationship);
  }

  /**
   * The declared fields.
   *
   * @return the fields in schema order
   */
  public List<StructField> fields() {
    return fields;
  }

  /**
   * The unions among the declared fields.
   *
   * @return the unions; usually empty
   */
  public List<Union> unions() {
    return unions;
  }

  /**
   * The type of keys that are not declared fields.
   *
   * @return the element type; {@link TypeRef#none()} when only declared fields are allowed
   */
  public TypeRef elementType() {
    return elementType;
  }

  /**
   * How the map merges.
   *
   * @return {@code SEPARABLE} for granular maps, {@code ATOMIC} for maps replaced as a whole
   */
  public ElementRelationship elementRelationship() {
    return elementRelationship;
  }

  /**
   * The declared field called {@code name}.
   *
   * @param name the serialized field name
   * @return the field; empty when none is declared with that name
   */
  public Optional<StructField> findField(String name) {
    // maps of data declare no fields: their keys need not be hashed to learn that
    return byName.isEmpty() ? Optional.empty() : Optional.ofNullable(byName.get(name));
  }

  /**
   * A copy with another element relationship (used for field-level overrides).
   *
   * @param relationship the relationship to use
   * @return the new map type
   */
  public MapType withElementRelationship(ElementRelationship relationship) {
    return relationship == elementRelationship
        ? this
        : new MapType(fields, unions, elementType, relationship);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MapType m
        && elementRelationship == m.elementRelationship
        && elementType.equals(m.elementType)
        && fields.equals(m.fields)
        && unions.equals(m.unions);
  }

  @Override
  public int hashCode() {
    return Objects.hash(fields, unions, elementType, elementRelationship);
  }

  @Override
  public String toString() {
    return "MapType{" + elementRelationship.smdName() + ", fields=" + fields.size()
        + (elementType.isNone() ? "" : ", elementType=" + elementType) + "}";
  }
}
