/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;

/** apimachinery's {@code intstr.GetScaledValueFromIntOrPercent} on a JSON value. */
public final class IntOrPercent {
  private IntOrPercent() {}

  /** How a percentage of a total is rounded. */
  public enum Rounding {
    /** Towards the larger integer. */
    UP,
    /** Towards the smaller integer. */
    DOWN
  }

  /**
   * An integer as itself, {@code "N%"} as N percent of {@code total} rounded as asked, a missing
   * value as {@code fallback}.
   *
   * @throws IllegalArgumentException for a string that is not a percentage, naming it
   */
  public static long scaled(Value value, long total, Rounding rounding, long fallback) {
    if (value == null || value.equals(Value.nullValue())) {
      return fallback;
    }
    String s = Nested.str(value);
    if (s.isEmpty()) {
      return Nested.integer(value);
    }
    if (!s.endsWith("%")) {
      throw new IllegalArgumentException("invalid value for IntOrString: invalid value \"" + s
          + "\": must be an integer or a percentage");
    }
    long percent;
    try {
      percent = Long.parseLong(s.substring(0, s.length() - 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid value \"" + s + "\"", e);
    }
    long scaled = percent * total;
    return rounding == Rounding.UP ? Math.floorDiv(scaled + 99, 100) : Math.floorDiv(scaled, 100);
  }
}
