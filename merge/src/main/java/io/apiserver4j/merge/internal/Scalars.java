package io.apiserver4j.merge.internal;

import io.apiserver4j.core.Value;
import io.apiserver4j.merge.ScalarType;

/** Scalar checks shared by the walkers (SMD's {@code validateScalar}). */
final class Scalars {
  private Scalars() {}

  /** Null when {@code v} (absent, null, or a scalar) fits {@code t}; else the error message. */
  static String check(ScalarType t, Value v) {
    if (v == null || v.isNull()) {
      return null;
    }
    Value.Kind k = v.kind();
    boolean number = k == Value.Kind.INTEGER || k == Value.Kind.FLOAT;
    if (t == ScalarType.STRING || t.equals(ScalarType.STRING)) {
      return k == Value.Kind.STRING ? null : "expected string, got " + describe(v);
    }
    if (t == ScalarType.NUMERIC || t.equals(ScalarType.NUMERIC)) {
      return number ? null : "expected numeric (int or float), got " + describe(v);
    }
    if (t == ScalarType.BOOLEAN || t.equals(ScalarType.BOOLEAN)) {
      return k == Value.Kind.BOOLEAN ? null : "expected boolean, got " + describe(v);
    }
    if (t == ScalarType.UNTYPED || t.equals(ScalarType.UNTYPED)) {
      return number || k == Value.Kind.STRING || k == Value.Kind.BOOLEAN
          ? null
          : "expected any scalar, got " + describe(v);
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
