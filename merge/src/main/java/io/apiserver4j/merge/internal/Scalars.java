/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.internal;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.ScalarType;

/** Scalar checks shared by the walkers (SMD's {@code validateScalar}). */
final class Scalars {
  private Scalars() {}

  /** Null when {@code v} (absent, null, or a scalar) fits {@code t}; else the error message. */
  static String check(ScalarType t, Value v) {
    if (v == null || v instanceof NullValue) {
      return null;
    }
    boolean string = v instanceof StringValue;
    boolean number = v instanceof IntegerValue || v instanceof FloatValue;
    boolean bool = v instanceof BooleanValue;
    if (t == ScalarType.STRING) {
      return string ? null : "expected string, got " + describe(v);
    }
    if (t == ScalarType.NUMERIC) {
      return number ? null : "expected numeric (int or float), got " + describe(v);
    }
    if (t == ScalarType.BOOLEAN) {
      return bool ? null : "expected boolean, got " + describe(v);
    }
    if (t == ScalarType.UNTYPED) {
      return number || string || bool ? null : "expected any scalar, got " + describe(v);
    }
    // Other instances equal to a known kind (built with new ScalarType(..)) behave the same.
    if (t.isKnown()) {
      return check(ScalarType.of(t.smdName()), v);
    }
    return "unexpected scalar type in schema: " + t.smdName();
  }

  static String describe(Value v) {
    String s = v.toString();
    if (s.length() > 80) {
      s = s.substring(0, 77) + "...";
    }
    return v.kind().name().toLowerCase() + " " + s;
  }
}
