/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/**
 * A schema is malformed: unknown keys, wrong value types, invalid element relationships,
 * duplicate type or field names. The message names the offending location, for example
 * {@code types[3] "io.k8s.api.core.v1.Pod": map.fields[2]: unknown key "typ"}.
 */
public final class SchemaException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message and no cause.
   *
   * @param message what went wrong
   */
  public SchemaException(String message) {
    super(message);
  }
}
