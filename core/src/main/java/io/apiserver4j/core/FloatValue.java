/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** A 64-bit floating point number. Equality is by bit pattern, so NaN equals NaN. */
public record FloatValue(double value) implements Value {
  @Override
  public Kind kind() {
    return Kind.FLOAT;
  }

  @Override
  public String toString() {
    return Double.toString(value);
  }
}
