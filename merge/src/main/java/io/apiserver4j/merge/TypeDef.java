/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/** A named type of a {@link Schema}. */
public record TypeDef(String name, Atom atom) {
  public TypeDef {
    requireNonNull(name, "name");
    requireNonNull(atom, "atom");
    if (name.isEmpty()) {
      throw new SchemaException("type name must not be empty");
    }
  }
}
