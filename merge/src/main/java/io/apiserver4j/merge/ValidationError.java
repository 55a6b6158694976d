/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.fieldpath.FieldPath;

/**
 * One way a value violates its schema, at a structured path (the empty path is the root).
 * {@link #toString()} gives SMD's text form, {@code .spec.replicas: expected numeric ...}.
 *
 * @param path where the value violates the schema
 * @param message what is wrong, in SMD's words
 */
public record ValidationError(FieldPath path, String message) {
  /**
   * Checks that no component is null.
   *
   * @param path see the record component
   * @param message see the record component
   * @throws NullPointerException when a component is null
   */
  public ValidationError {
    requireNonNull(path, "path");
    requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return path.isEmpty() ? message : path + ": " + message;
  }
}
