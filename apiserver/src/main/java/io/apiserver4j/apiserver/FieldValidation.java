/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import java.util.Optional;

/**
 * kube's {@code fieldValidation} directive: what a write does with unknown and duplicate fields.
 */
public enum FieldValidation {
  /** Drop them silently. */
  IGNORE("Ignore"),
  /** Drop them and answer a {@code Warning: 299} header for each (kube's default). */
  WARN("Warn"),
  /** Reject the request with a 400 naming every one. */
  STRICT("Strict");

  private final String wireName;

  FieldValidation(String wireName) {
    this.wireName = wireName;
  }

  /** The query value, e.g. {@code Strict}. */
  public String wireName() {
    return wireName;
  }

  /** The directive of a query value; the empty value means {@link #WARN}. */
  public static Optional<FieldValidation> fromWireName(String value) {
    if (value.isEmpty()) {
      return Optional.of(WARN);
    }
    for (FieldValidation v : values()) {
      if (v.wireName.equals(value)) {
        return Optional.of(v);
      }
    }
    return Optional.empty();
  }
}
