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
 */
public record ValidationError(FieldPath path, String message) {
  public ValidationError {
    requireNonNull(path, "path");
    requireNonNull(message, "message");
  }

  @Override
  public String toString() {
    return path.isEmpty() ? message : path + ": " + message;
  }
}
