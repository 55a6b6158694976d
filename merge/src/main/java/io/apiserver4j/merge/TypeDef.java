/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * A named type of a {@link Schema}.
 *
 * @param name the type's name, referenced by {@link TypeRef#named}
 * @param atom what the type accepts
 */
public record TypeDef(String name, Atom atom) {
  /**
   * Checks that no component is null and the name is not empty.
   *
   * @param name see the record component
   * @param atom see the record component
   * @throws NullPointerException when a component is null
   * @throws SchemaException when the name is empty
   */
  public TypeDef {
    requireNonNull(name, "name");
    requireNonNull(atom, "atom");
    if (name.isEmpty()) {
      throw new SchemaException("type name must not be empty");
    }
  }
}
