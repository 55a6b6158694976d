/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import java.util.List;
import java.util.Map;

/**
 * An immutable JSON-like value: null, boolean, 64-bit integer, float, string, list, or a map
 * with insertion order.
 *
 * <p>Equality is exact: the integer {@code 1} never equals the float {@code 1.0}, and null,
 * {@code {}} and {@code []} are all distinct. {@link #compareTo} is a total order that mirrors
 * structured-merge-diff's {@code value.Compare} (floats, integers, strings, booleans, lists,
 * maps, null; integers and floats compared numerically, ties broken by type so that the order
 * stays consistent with {@code equals}).
 *
 * <p>Instances are thread-safe.
 */
public sealed interface Value extends Comparable<Value>
    permits NullValue, BooleanValue, IntegerValue, FloatValue, StringValue, ListValue, MapValue {

  /** The kind of a value, in the order {@link #compareTo} ranks them. */
  enum Kind { FLOAT, INTEGER, STRING, BOOLEAN, LIST, MAP, NULL }

  Kind kind();

  static Value nullValue() {
    return NullValue.INSTANCE;
  }

  static Value of(boolean b) {
    return b ? BooleanValue.TRUE : BooleanValue.FALSE;
  }

  static Value of(long l) {
    return IntegerValue.of(l);
  }

  static Value of(double d) {
    return new FloatValue(d);
  }

  static Value of(String s) {
    return new StringValue(s);
  }

  static ListValue list(List<? extends Value> items) {
    return ListValue.of(items);
  }

  static ListValue list(Value... items) {
    return ListValue.of(List.of(items));
  }

  static MapValue map(Map<String, ? extends Value> entries) {
    return MapValue.of(entries);
  }

  default boolean isNull() {
    return this instanceof NullValue;
  }

  @Override
  default int compareTo(Value other) {
    return Values.compare(this, other);
  }
}
