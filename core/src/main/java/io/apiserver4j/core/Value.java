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
  enum Kind {
    /** A {@link FloatValue}. */
    FLOAT,
    /** An {@link IntegerValue}. */
    INTEGER,
    /** A {@link StringValue}. */
    STRING,
    /** A {@link BooleanValue}. */
    BOOLEAN,
    /** A {@link ListValue}. */
    LIST,
    /** A {@link MapValue}. */
    MAP,
    /** The null value. */
    NULL;

    /**
     * The OpenAPI (JSON Schema) type of values of this kind, as schema validation names it.
     *
     * @return {@code number}, {@code integer}, {@code string}, {@code boolean}, {@code array},
     *     {@code object} or {@code null}
     */
    public String schemaType() {
      return switch (this) {
        case FLOAT -> "number";
        case INTEGER -> "integer";
        case STRING -> "string";
        case BOOLEAN -> "boolean";
        case LIST -> "array";
        case MAP -> "object";
        case NULL -> "null";
      };
    }
  }

  /**
   * The kind of this value.
   *
   * @return the kind matching the value's type
   */
  Kind kind();

  /**
   * The null value.
   *
   * @return the shared null instance
   */
  static Value nullValue() {
    return NullValue.INSTANCE;
  }

  /**
   * A boolean value.
   *
   * @param b the boolean
   * @return the shared instance for {@code b}
   */
  static Value of(boolean b) {
    return b ? BooleanValue.TRUE : BooleanValue.FALSE;
  }

  /**
   * An integer value.
   *
   * @param l the integer
   * @return the value; small ones are shared
   */
  static Value of(long l) {
    return IntegerValue.of(l);
  }

  /**
   * A float value; never equal to an integer of the same magnitude.
   *
   * @param d the float
   * @return the value
   */
  static Value of(double d) {
    return new FloatValue(d);
  }

  /**
   * A string value.
   *
   * @param s the string
   * @return the value
   */
  static Value of(String s) {
    return new StringValue(s);
  }

  /**
   * A list of these items.
   *
   * @param items the items, copied
   * @return the list
   */
  static ListValue list(List<? extends Value> items) {
    return ListValue.of(items);
  }

  /**
   * A list of these items.
   *
   * @param items the items, copied
   * @return the list
   */
  static ListValue list(Value... items) {
    return ListValue.of(List.of(items));
  }

  /**
   * A map of these entries in their iteration order.
   *
   * @param entries the entries, copied
   * @return the map
   */
  static MapValue map(Map<String, ? extends Value> entries) {
    return MapValue.of(entries);
  }

  /**
   * Whether this is the null value.
   *
   * @return true for the null value
   */
  default boolean isNull() {
    return this instanceof NullValue;
  }

  @Override
  default int compareTo(Value other) {
    return Values.compare(this, other);
  }
}
