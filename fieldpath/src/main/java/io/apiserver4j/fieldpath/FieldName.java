/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

/** Selects a field of a map or struct by name; any string, including the empty one. */
public record FieldName(String name) implements PathElement {
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
