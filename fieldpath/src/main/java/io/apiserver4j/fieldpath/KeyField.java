/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;

/**
 * One field of an associative-list {@link Key}. Equality compares values as structured-merge-diff
 * does (numerically equal integers and floats are equal).
 *
 * @param name the key field's name
 * @param value the value the item has in that field
 */
public record KeyField(String name, Value value) {
  /**
   * Checks that no component is null.
   *
   * @param name see the record component
   * @param value see the record component
   * @throws NullPointerException when a component is null
   */
  public KeyField {
    requireNonNull(name, "name");
    requireNonNull(value, "value");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyField k && name.equals(k.name) && PathValues.equal(value, k.value);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + PathValues.hash(value);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(name).append('=');
    PathValues.appendHuman(sb, value);
    return sb.toString();
  }
}
