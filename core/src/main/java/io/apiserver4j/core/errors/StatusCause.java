/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import static java.util.Objects.requireNonNull;

/**
 * One cause of a failure, e.g. a field error or a field-manager conflict.
 *
 * @param type the cause type, serialized under the key {@code reason} (e.g. {@code FieldValueInvalid},
 *     {@code FieldManagerConflict}); empty when unset
 * @param message human readable; empty when unset
 * @param field the field path in kube's dotted form; empty when unset
 */
public record StatusCause(String type, String message, String field) {
  /**
   * Checks that no component is null.
   *
   * @param type see the record component
   * @param message see the record component
   * @param field see the record component
   * @throws NullPointerException when a component is null
   */
  public StatusCause {
    requireNonNull(type, "type");
    requireNonNull(message, "message");
    requireNonNull(field, "field");
  }
}
