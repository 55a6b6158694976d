/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * A member of a {@link Union}: the serialized field name and the discriminator value that
 * selects it.
 */
public record UnionField(String fieldName, String discriminatorValue) {
  public UnionField {
    requireNonNull(fieldName, "fieldName");
    requireNonNull(discriminatorValue, "discriminatorValue");
  }
}
