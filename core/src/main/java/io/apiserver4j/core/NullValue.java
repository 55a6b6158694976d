/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/** The JSON {@code null}. A singleton: test with {@link Value#isNull()}. */
public final class NullValue implements Value {
  static final NullValue INSTANCE = new NullValue();

  private NullValue() {}

  @Override
  public Kind kind() {
    return Kind.NULL;
  }

  @Override
  public String toString() {
    return "null";
  }
}
