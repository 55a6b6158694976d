/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;
import java.util.Objects;
import java.util.Optional;

/**
 * A named field of a struct-like map type, with its type and an optional default value. The
 * default matters for associative-list keys: an item that omits a key field with a default is
 * identified as if it carried the default.
 */
public final class StructField {
  private final String name;
  private final TypeRef type;
  private final Value defaultValue;

  private StructField(String name, TypeRef type, Value defaultValue) {
    this.name = requireNonNull(name, "name");
    this.type = requireNonNull(type, "type");
    this.defaultValue = defaultValue;
  }

  /**
   * A field without a default value.
   *
   * @param name the serialized field name
   * @param type the field's type
   * @return the field
   */
  public static StructField of(String name, TypeRef type) {
    return new StructField(name, type, null);
  }

  /**
   * A field with a default value; a null {@code Value} means "no default", as in SMD.
   *
   * @param name the serialized field name
   * @param type the field's type
   * @param defaultValue the default
   * @return the field
   */
  public static StructField withDefault(String name, TypeRef type, Value defaultValue) {
    requireNonNull(defaultValue, "defaultValue");
    return new StructField(name, type, defaultValue.isNull() ? null : defaultValue);
  }

  /**
   * The serialized field name.
   *
   * @return the name
   */
  public String name() {
    return name;
  }

  /**
   * The field's type.
   *
   * @return the type reference
   */
  public TypeRef type() {
    return type;
  }

  /**
   * The default value.
   *
   * @return the default; empty when there is none
   */
  public Optional<Value> defaultValue() {
    return Optional.ofNullable(defaultValue);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StructField f
        && name.equals(f.name)
        && type.equals(f.type)
        && Objects.equals(defaultValue, f.defaultValue);
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, type, defaultValue);
  }

  @Override
  public String toString() {
    return name + ": " + type + (defaultValue == null ? "" : " = " + defaultValue);
  }
}
