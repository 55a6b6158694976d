/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Value;

/**
 * The result of an evaluation whose runtime cost was tracked.
 *
 * @param value what the expression evaluated to
 * @param cost the runtime cost in cel-go's units (its {@code EvalDetails.ActualCost})
 */
public record CelResult(Value value, long cost) {
  /**
   * Checks that the value is not null.
   *
   * @param value see the record component
   * @param cost see the record component
   * @throws NullPointerException when the value is null
   */
  public CelResult {
    requireNonNull(value, "value");
  }
}
