/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

/**
 * Selects a list item by position (atomic or positional lists). The index is a 64-bit number
 * because FieldsV1 written by Go may carry any {@code int} value; it is not checked against
 * anything here.
 *
 * @param index the position, as written; may be negative
 */
public record Index(long index) implements PathElement {
  @Override
  public Kind kind() {
    return Kind.INDEX;
  }

  /**
   * The index as an {@code int}, for addressing a Java list.
   *
   * @return the index
   * @throws ArithmeticException when it does not fit in an {@code int}
   */
  public int asInt() {
    return Math.toIntExact(index);
  }

  @Override
  public String toPathString() {
    return "[" + index + "]";
  }

  @Override
  public String toString() {
    return toPathString();
  }
}
