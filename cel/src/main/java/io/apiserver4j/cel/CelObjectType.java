package io.apiserver4j.cel;

import java.util.Optional;

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
