/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a variable looks like to field selection, so that a rule selecting a field its schema
 * does not declare fails to compile as in kube ({@code undefined field 'x'}) instead of failing
 * on every object at run time. Implementations must be immutable and thread-safe.
 */
public interface CelObjectType {
  /** The type of field {@code name} (a CEL identifier, escaped as kube escapes names). */
  Optional<CelObjectType> field(String name);

  /** Whether any field may be selected (maps, untyped values, values that are not objects). */
  boolean open();

  /** The type of a list's items, or of a map's values; empty when unknown. */
  default Optional<CelObjectType> element() {
    return Optional.empty();
  }

  /**
   * How a string value of this type is seen by CEL, as kube's schema formats decide:
   * {@link Scalar#TIMESTAMP} for {@code date} and {@code date-time}, {@link Scalar#DURATION} for
   * {@code duration}, {@link Scalar#BYTES} for {@code byte} (base64), {@link Scalar#DOUBLE} for
   * {@code number} (integral JSON numbers are doubles), else {@link Scalar#PLAIN}.
   */
  default Scalar scalar() {
    return Scalar.PLAIN;
  }

  /** String representations kube converts to CEL types. */
  enum Scalar { PLAIN, TIMESTAMP, DURATION, BYTES, DOUBLE }

  /**
   * The CEL type kind of values of this type, as kube's schema-derived declarations type them;
   * it drives static cost estimation where the variable itself is declared {@code dyn}.
   */
  default ValueKind kind() {
    return ValueKind.DYN;
  }

  /**
   * The most characters, bytes, items or entries a value of this type can have (kube's
   * {@code DeclType.MaxElements}, derived from maxLength, maxItems, maxProperties or the
   * largest request); empty when unknown. Used for static cost estimation only.
   */
  default OptionalLong maxElements() {
    return OptionalLong.empty();
  }

  /** CEL type kinds a schema can declare. */
  enum ValueKind { DYN, OBJECT, MAP, LIST, STRING, BYTES, INT, DOUBLE, BOOL, DURATION, TIMESTAMP }

  /** A type that allows every selection. */
  static CelObjectType dynamic() {
    return Dynamic.INSTANCE;
  }

  /** The type behind {@link #dynamic()}. */
  enum Dynamic implements CelObjectType {
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
