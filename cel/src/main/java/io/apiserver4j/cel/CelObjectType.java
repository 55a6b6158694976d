/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a variable looks like to field selection, so that a rule selecting a field its schema
 * does not declare fails to compile as in kube ({@code undefined field 'x'}) instead of failing
 * on every object at run time. Implementations must be immutable and thread-safe.
 */
public interface CelObjectType {
  /**
   * The type of a field.
   *
   * @param name the field as a CEL identifier, escaped as kube escapes names
   * @return the field's type; empty when the type has no such field
   */
  Optional<CelObjectType> field(String name);

  /**
   * Whether any field may be selected.
   *
   * @return true for maps, untyped values and values that are not objects
   */
  boolean open();

  /**
   * The type of a list's items, or of a map's values.
   *
   * @return the element type; empty when unknown
   */
  default Optional<CelObjectType> element() {
    return Optional.empty();
  }

  /**
   * How a string value of this type is seen by CEL, as kube's schema formats decide:
   * {@link Scalar#TIMESTAMP} for {@code date} and {@code date-time}, {@link Scalar#DURATION} for
   * {@code duration}, {@link Scalar#BYTES} for {@code byte} (base64), {@link Scalar#DOUBLE} for
   * {@code number} (integral JSON numbers are doubles), else {@link Scalar#PLAIN}.
   *
   * @return the representation; {@link Scalar#PLAIN} by default
   */
  default Scalar scalar() {
    return Scalar.PLAIN;
  }

  /** String representations kube converts to CEL types. */
  enum Scalar {
    /** The value as it is. */
    PLAIN,
    /** An RFC 3339 string seen as a CEL {@code timestamp}. */
    TIMESTAMP,
    /** A Go duration string seen as a CEL {@code duration}. */
    DURATION,
    /** A base64 string seen as CEL {@code bytes}. */
    BYTES,
    /** A number seen as a CEL {@code double}, even when integral. */
    DOUBLE
  }

  /**
   * The CEL type kind of values of this type, as kube's schema-derived declarations type them;
   * it drives static cost estimation where the variable itself is declared {@code dyn}.
   *
   * @return the kind; {@link ValueKind#DYN} by default
   */
  default ValueKind kind() {
    return ValueKind.DYN;
  }

  /**
   * The most characters, bytes, items or entries a value of this type can have (kube's
   * {@code DeclType.MaxElements}, derived from maxLength, maxItems, maxProperties or the
   * largest request); empty when unknown. Used for static cost estimation only.
   *
   * @return the bound; empty by default
   */
  default OptionalLong maxElements() {
    return OptionalLong.empty();
  }

  /**
   * The OpenAPI type the schema declares ({@code object}, {@code array}, {@code string}, ...),
   * which kube's {@code UnstructuredToVal} requires of a value before CEL sees it: an object
   * that is not a map, or an array that is not a list, is CEL's {@code invalid data} error.
   *
   * @return the declared type; empty when none is declared (the default)
   */
  default String schemaType() {
    return "";
  }

  /**
   * Whether the schema is {@code x-kubernetes-int-or-string}: a value of another kind is CEL's
   * {@code invalid data} error, as in kube.
   *
   * @return false by default
   */
  default boolean intOrString() {
    return false;
  }

  /**
   * Whether null is a value of this type; a null item or map value of a type that is not is
   * CEL's {@code invalid data} error, as in kube. (A declared object field set to null is
   * absent, not null.)
   *
   * @return true by default
   */
  default boolean nullable() {
    return true;
  }

  /**
   * The {@code x-kubernetes-list-type} of a list of this type, which decides how kube's CEL
   * values compare and concatenate it: a {@link ListType#SET} equals any list with the same
   * items in any order and {@code +} appends only new items; a {@link ListType#MAP} equals any
   * list with items of the same keys and values in any order and {@code +} replaces the items
   * whose keys it has.
   *
   * @return {@link ListType#ATOMIC} by default
   */
  default ListType listType() {
    return ListType.ATOMIC;
  }

  /**
   * The key fields of a list of type {@link ListType#MAP}, as its items show them to CEL
   * (escaped as kube escapes names).
   *
   * @return the key names; empty by default
   */
  default List<String> listMapKeys() {
    return List.of();
  }

  /** The values of {@code x-kubernetes-list-type}. */
  enum ListType {
    /** A list compared item by item (the default). */
    ATOMIC,
    /** A list of distinct scalars, compared as a set. */
    SET,
    /** A list of objects identified by their key fields, compared as a map. */
    MAP
  }

  /** CEL type kinds a schema can declare. */
  enum ValueKind {
    /** Unknown or mixed: CEL's {@code dyn}. */
    DYN,
    /** An object with declared fields. */
    OBJECT,
    /** A map with string keys ({@code additionalProperties}). */
    MAP,
    /** A list. */
    LIST,
    /** A string. */
    STRING,
    /** Bytes ({@code format: byte}). */
    BYTES,
    /** A 64-bit integer. */
    INT,
    /** A double. */
    DOUBLE,
    /** A boolean. */
    BOOL,
    /** A duration ({@code format: duration}). */
    DURATION,
    /** A timestamp ({@code format: date} or {@code date-time}). */
    TIMESTAMP
  }

  /**
   * A type that allows every selection.
   *
   * @return the open, untyped type whose every field is itself
   */
  static CelObjectType dynamic() {
    return Dynamic.INSTANCE;
  }

  /** The type behind {@link #dynamic()}. */
  enum Dynamic implements CelObjectType {
    /** The only instance. */
    INSTANCE;

    @Override
    public Optional<CelObjectType> field(String name) {
      return Optional.of(this);
    }

    @Override
    public boolean open() {
      return true;
    }
  }
}
