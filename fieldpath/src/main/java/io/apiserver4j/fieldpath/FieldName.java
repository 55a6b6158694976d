/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

/**
 * Selects a field of a map or struct by name; any string, including the empty one.
 *
 * @param name the field name, unescaped
 */
public record FieldName(String name) implements PathElement {
  /**
   * Checks that no component is null.
   *
   * @param name see the record component
   * @throws NullPointerException when a component is null
   */
  public FieldName {
    requireNonNull(name, "name");
  }

  @Override
  public Kind kind() {
    return Kind.FIELD_NAME;
  }

  @Override
  public String toPathString() {
    return "." + name;
  }

  @Override
  public String toString() {
    return toPathString();
  }
}
