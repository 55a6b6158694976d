/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * A member of a {@link Union}: the serialized field name and the discriminator value that
 * selects it.
 *
 * @param fieldName the member's serialized field name
 * @param discriminatorValue the discriminator value that selects the member
 */
public record UnionField(String fieldName, String discriminatorValue) {
  /**
   * Checks that no component is null.
   *
   * @param fieldName see the record component
   * @param discriminatorValue see the record component
   * @throws NullPointerException when a component is null
   */
  public UnionField {
    requireNonNull(fieldName, "fieldName");
    requireNonNull(discriminatorValue, "discriminatorValue");
  }
}
