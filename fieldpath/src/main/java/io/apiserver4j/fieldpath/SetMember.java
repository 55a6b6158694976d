/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;

/**
 * Selects the item of a set (a list of scalars with set semantics) by its value. Equality
 * follows structured-merge-diff: numerically equal integers and floats are the same member.
 *
 * @param value the member's value
 */
public record SetMember(Value value) implements PathElement {
  /**
   * Checks that no component is null.
   *
   * @param value see the record component
   * @throws NullPointerException when a component is null
   */
  public SetMember {
    requireNonNull(value, "value");
  }

  @Override
  public Kind kind() {
    return Kind.SET_MEMBER;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SetMember m && PathValues.equal(value, m.value);
  }

  @Override
  public int hashCode() {
    return PathValues.hash(value);
  }

  @Override
  public String toPathString() {
    StringBuilder sb = new StringBuilder();
    Elements.appendPathString(sb, this);
    return sb.toString();
  }

  @Override
  public String toString() {
    return toPathString();
  }
}
