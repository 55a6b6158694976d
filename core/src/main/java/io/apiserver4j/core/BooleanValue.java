/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** A boolean. */
public record BooleanValue(boolean value) implements Value {
  static final BooleanValue TRUE = new BooleanValue(true);
  static final BooleanValue FALSE = new BooleanValue(false);

  @Override
  public Kind kind() {
    return Kind.BOOLEAN;
  }

  @Override
  public String toString() {
    return Boolean.toString(value);
  }
}
