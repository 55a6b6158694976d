/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.merge.internal.TypeNode;
import io.apiserver4j.merge.internal.Validator;
import java.util.List;

/**
 * A type of a schema, ready to type values (SMD's {@code ParseableType}). Obtain one with
 * {@link Schema#type(String)} or {@link #deduced()}. Any problem with the type itself (an unknown
 * name) surfaces when a value is typed.
 *
 * <p>Immutable and thread-safe.
 */
public final class ParseableType {
  private static final ParseableType DEDUCED =
      new ParseableType(Schema.deducedSchema(), TypeRef.named(Schema.UNTYPED_DEDUCED));

  private final Schema schema;
  private final TypeRef typeRef;
  private final TypeNode node;

  ParseableType(Schema schema, TypeRef typeRef) {
    this.schema = schema;
    this.typeRef = typeRef;
    this.node = schema.compiled().resolve(typeRef);
  }

  /**
   * SMD's deduced type, for objects without a schema: maps are granular all the way down, lists
   * and scalars are leaves.
   *
   * @return the deduced type of {@link Schema#deducedSchema()}
   */
  public static ParseableType deduced() {
    return DEDUCED;
  }

  /**
   * The schema the type belongs to.
   *
   * @return the schema
   */
  public Schema schema() {
    return schema;
  }

  /**
   * The reference to this type in {@link #schema()}.
   *
   * @return the reference
   */
  public TypeRef typeRef() {
    return typeRef;
  }

  /**
   * Whether the type reference resolves in the schema.
   *
   * @return true when values can be typed with this type
   */
  public boolean isValid() {
    return node.unresolved == null;
  }

  /**
   * Types {@code value}, rejecting duplicate set or associative-list items.
   *
   * @param value the value
   * @return the typed value
   * @throws ValidationException listing every violation
   */
  public TypedValue fromValue(Value value) {
    return fromValue(value, Duplicates.REJECT);
  }

  /**
   * Types {@code value}.
   *
   * @param value the value
   * @param duplicates whether duplicate set or associative-list items are accepted
   * @return the typed value
   * @throws ValidationException listing every violation
   */
  public TypedValue fromValue(Value value, Duplicates duplicates) {
    requireNonNull(value, "value");
    requireNonNull(duplicates, "duplicates");
    List<ValidationError> errors =
        Validator.validate(node, value, duplicates == Duplicates.ALLOW);
    if (!errors.isEmpty()) {
      throw new ValidationException(errors);
    }
    return new TypedValue(value, schema, typeRef, node, duplicates == Duplicates.REJECT);
  }

  /**
   * Parses YAML (Go yaml.v2 scalar rules) and types it, rejecting duplicates.
   *
   * @throws io.apiserver4j.core.DecodeException if the text is not YAML
   * @throws ValidationException if the value does not fit the type
   * @param yaml the YAML text
   * @return the typed value
   */
  public TypedValue fromYaml(String yaml) {
    return fromYaml(yaml, Duplicates.REJECT);
  }

  /**
   * Parses YAML and types it; see {@link #fromYaml(String)}.
   *
   * @param yaml the YAML text
   * @param duplicates whether duplicate set or associative-list items are accepted
   * @return the typed value
   * @throws io.apiserver4j.core.DecodeException if the text is not YAML
   * @throws ValidationException if the value does not fit the type
   */
  public TypedValue fromYaml(String yaml, Duplicates duplicates) {
    requireNonNull(yaml, "yaml");
    return fromValue(Yaml.read(yaml), duplicates);
  }

  /**
   * Types {@code value} without validating it, for values known to be valid (for example the
   * output of a conversion of a valid value). Operations on an invalid value report errors or
   * give unspecified results.
   *
   * @param value a value known to fit the type
   * @return the typed value
   */
  public TypedValue fromValueUnvalidated(Value value) {
    requireNonNull(value, "value");
    return new TypedValue(value, schema, typeRef, node, false);
  }

  /**
   * The null value of this type (what a not-yet-created object is).
   *
   * @return the typed null
   */
  public TypedValue nullValue() {
    return new TypedValue(Value.nullValue(), schema, typeRef, node, true);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ParseableType p && p.schema == schema && p.typeRef.equals(typeRef);
  }

  @Override
  public int hashCode() {
    return System.identityHashCode(schema) * 31 + typeRef.hashCode();
  }

  @Override
  public String toString() {
    return "ParseableType{" + typeRef + "}";
  }
}
