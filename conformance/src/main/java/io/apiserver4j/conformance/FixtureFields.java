/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.conformance;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Strict accessors for fixture maps, shared by suites. Every problem is a
 * {@link FixtureFormatException} whose message names the key, so a suite can turn it into a
 * failed case.
 */
public final class FixtureFields {
  private FixtureFields() {}

  /** Thrown when a fixture does not have the documented shape. */
  public static final class FixtureFormatException extends RuntimeException {
    public FixtureFormatException(String message) {
      super(message);
    }
  }

  /** Fails when {@code m} has a key outside {@code allowed}. */
  public static void onlyKeys(MapValue m, Set<String> allowed, String where) {
    List<String> unknown = new ArrayList<>();
    for (int i = 0; i < m.size(); i++) {
      if (!allowed.contains(m.keyAt(i))) {
        unknown.add(m.keyAt(i));
      }
    }
    if (!unknown.isEmpty()) {
      throw new FixtureFormatException("unknown key(s) " + unknown + " in " + where
          + " (known: " + allowed.stream().sorted().toList() + ")");
    }
  }

  public static Value required(MapValue m, String key) {
    Value v = m.getOrNull(key);
    if (v == null) {
      throw new FixtureFormatException("missing key '" + key + "'");
    }
    return v;
  }

  public static String string(MapValue m, String key) {
    Value v = required(m, key);
    if (v instanceof StringValue s) {
      return s.value();
    }
    throw new FixtureFormatException("'" + key + "' must be a string, found " + v.kind());
  }

  public static boolean bool(MapValue m, String key) {
    Value v = required(m, key);
    if (v instanceof BooleanValue b) {
      return b.value();
    }
    throw new FixtureFormatException("'" + key + "' must be a boolean, found " + v.kind());
  }

  public static long integer(MapValue m, String key) {
    Value v = required(m, key);
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    throw new FixtureFormatException("'" + key + "' must be an integer, found " + v.kind());
  }

  public static MapValue map(Value v, String what) {
    if (v instanceof MapValue m) {
      return m;
    }
    throw new FixtureFormatException(what + " must be a map, found " + v.kind());
  }

  public static ListValue list(MapValue m, String key) {
    Value v = required(m, key);
    if (v instanceof ListValue l) {
      return l;
    }
    throw new FixtureFormatException("'" + key + "' must be a list, found " + v.kind());
  }
}
