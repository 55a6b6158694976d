/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * A scalar kind of a structured-merge-diff schema: {@link #NUMERIC}, {@link #STRING},
 * {@link #BOOLEAN} or {@link #UNTYPED}. Like SMD, a schema may name another scalar kind; such a
 * type loads, but validating a value against it fails ("unexpected scalar type in schema"),
 * while operations that do not validate (remove, extract) still work.
 *
 * @param smdName the spelling used in SMD schema YAML
 */
public record ScalarType(String smdName) {
  /** Integers and floats. */
  public static final ScalarType NUMERIC = new ScalarType("numeric");
  /**
   * Strings.
   */
  public static final ScalarType STRING = new ScalarType("string");
  /**
   * Booleans.
   */
  public static final ScalarType BOOLEAN = new ScalarType("boolean");
  /** Any scalar: number, string or boolean. */
  public static final ScalarType UNTYPED = new ScalarType("untyped");

  /**
   * Checks that the name is not empty.
   *
   * @param smdName see the record component
   * @throws NullPointerException when the name is null
   * @throws SchemaException when the name is empty
   */
  public ScalarType {
    requireNonNull(smdName, "smdName");
    if (smdName.isEmpty()) {
      throw new SchemaException("scalar type name must not be empty");
    }
  }

  /**
   * The scalar kind spelled {@code name}.
   *
   * @param name the SMD spelling
   * @return one of the constants when it is a known one, else a new unknown kind
   * @throws SchemaException when the name is empty
   */
  public static ScalarType of(String name) {
    switch (name) {
      case "numeric":
        return NUMERIC;
      case "string":
        return STRING;
      case "boolean":
        return BOOLEAN;
      case "untyped":
        return UNTYPED;
      default:
        return new ScalarType(name);
    }
  }

  /**
   * Whether this is one of the four kinds SMD defines.
   *
   * @return true for the constants of this class
   */
  public boolean isKnown() {
    return this.equals(NUMERIC) || this.equals(STRING) || this.equals(BOOLEAN) || this.equals(UNTYPED);
  }

  @Override
  public String toString() {
    return smdName;
  }
}
