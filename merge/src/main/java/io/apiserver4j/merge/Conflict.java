/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldPath;

/**
 * A field an apply would change although another manager owns it. {@link #toString()} is SMD's
 * form, {@code conflict with "manager": .spec.replicas}.
 *
 * @param manager the manager that owns the field
 * @param path the field
 */
public record Conflict(String manager, FieldPath path) {
  /**
   * Checks that no component is null.
   *
   * @param manager see the record component
   * @param path see the record component
   * @throws NullPointerException when a component is null
   */
  public Conflict {
    requireNonNull(manager, "manager");
    requireNonNull(path, "path");
  }

  @Override
  public String toString() {
    return "conflict with " + io.apiserver4j.core.GoStrings.quote(manager) + ": " + path;
  }
}
