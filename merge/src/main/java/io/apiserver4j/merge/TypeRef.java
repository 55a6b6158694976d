/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import java.util.Objects;
import java.util.Optional;

/**
 * A reference to a type: either a named type of the schema or an inline {@link Atom}, optionally
 * overriding the element relationship of the map or list it resolves to (SMD's {@code TypeRef}).
 * {@link #none()} is the absent reference (for example the element type of a struct that admits
 * no unknown fields).
 *
 * <p>Immutable and thread-safe; equality is structural.
 */
public final class TypeRef {
  private static final TypeRef NONE = new TypeRef(null, Atom.empty(), null, false);

  private final String namedType;
  private final Atom inlined;
  private final ElementRelationship elementRelationship;
  private final boolean nullable;
  private int hash;

  private TypeRef(String namedType, Atom inlined, ElementRelationship relationship, boolean nullable) {
    this.namedType = namedType;
    this.inlined = inlined;
    this.elementRelationship = relationship;
    this.nullable = nullable;
  }

  /**
   * A reference to the type called {@code name}.
   *
   * @param name the type name
   * @return the reference; it resolves only if the schema has that type
   * @throws IllegalArgumentException when the name is empty
   */
  public static TypeRef named(String name) {
    requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("named type reference must not have an empty name");
    }
    return new TypeRef(name, Atom.empty(), null, false);
  }

  /**
   * An inline type.
   *
   * @param atom the type itself
   * @return the reference
   */
  public static TypeRef inline(Atom atom) {
    requireNonNull(atom, "atom");
    return atom.isEmpty() ? NONE : new TypeRef(null, atom, null, false);
  }

  /**
   * The absent reference: resolves to the empty atom, which accepts no value.
   *
   * @return the shared absent reference
   */
  public static TypeRef none() {
    return NONE;
  }

  /**
   * A copy that overrides the element relationship of the map or list this reference resolves
   * to (SMD field-level overrides such as {@code x-kubernetes-map-type} on a property).
   *
   * @param relationship the relationship to use
   * @return the new reference
   */
  public TypeRef withElementRelationship(ElementRelationship relationship) {
    requireNonNull(relationship, "relationship");
    return new TypeRef(namedType, inlined, relationship, nullable);
  }

  /**
   * A copy marked as accepting an explicit null (informational, as in SMD).
   *
   * @return the new reference
   */
  public TypeRef asNullable() {
    return new TypeRef(namedType, inlined, elementRelationship, true);
  }

  /**
   * The name of the referenced type.
   *
   * @return the name; empty for inline references
   */
  public Optional<String> namedType() {
    return Optional.ofNullable(namedType);
  }

  /**
   * The inline atom.
   *
   * @return the atom; the empty atom for named references
   */
  public Atom inlined() {
    return inlined;
  }

  /**
   * The element-relationship override.
   *
   * @return the override; empty when the resolved type's own applies
   */
  public Optional<ElementRelationship> elementRelationship() {
    return Optional.ofNullable(elementRelationship);
  }

  /**
   * Whether an explicit null is accepted (informational).
   *
   * @return true when marked with {@link #asNullable()}
   */
  public boolean nullable() {
    return nullable;
  }

  /**
   * Whether this is the absent reference.
   *
   * @return true for {@link #none()} and anything equal to it
   */
  public boolean isNone() {
    return namedType == null && inlined.isEmpty() && elementRelationship == null && !nullable;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    return o instanceof TypeRef t
        && Objects.equals(namedType, t.namedType)
        && elementRelationship == t.elementRelationship
        && nullable == t.nullable
        && inlined.equals(t.inlined);
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      h = Objects.hash(namedType, inlined, elementRelationship, nullable) | 1;
      hash = h;
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (namedType != null) {
      sb.append("namedType: ").append(namedType);
    } else if (inlined.isEmpty()) {
      sb.append("none");
    } else {
      sb.append("inlined ").append(inlined);
    }
    if (elementRelationship != null) {
      sb.append(" (elementRelationship: ").append(elementRelationship.smdName()).append(')');
    }
    return sb.toString();
  }
}
