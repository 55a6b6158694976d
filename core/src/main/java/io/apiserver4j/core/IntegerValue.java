/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** A 64-bit signed integer. */
public record IntegerValue(long value) implements Value {
  private static final IntegerValue[] SMALL = new IntegerValue[257];

  static {
    for (int i = 0; i < SMALL.length; i++) {
      SMALL[i] = new IntegerValue(i - 128);
    }
  }

  /**
   * The integer value of {@code value}; small values are shared instances.
   *
   * @param value the integer
   * @return the value
   */
  public static IntegerValue of(long value) {
    return value >= -128 && value <= 128 ? SMALL[(int) value + 128] : new IntegerValue(value);
  }

  @Override
  public Kind kind() {
    return Kind.INTEGER;
  }

  @Override
  public String toString() {
    return Long.toString(value);
  }
}
