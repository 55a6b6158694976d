/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A string. */
public record StringValue(String value) implements Value {
  /**
   * Checks that no component is null.
   *
   * @param value see the record component
   * @throws NullPointerException when a component is null
   */
  public StringValue {
    requireNonNull(value, "value");
  }

  @Override
  public Kind kind() {
    return Kind.STRING;
  }

  @Override
  public String toString() {
    return Json.write(this);
  }
}
