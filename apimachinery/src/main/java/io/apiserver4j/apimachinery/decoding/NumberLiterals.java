/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.decoding;

import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.Json;
import java.util.HashMap;
import java.util.Map;

/**
 * The text of the number literals of one JSON body that are not plain int64s ({@code 1.5},
 * {@code 1e3}, {@code 2e400}), by the bits of the float read for them: Go's decoding errors
 * quote the literal ({@code cannot unmarshal number 1e3 into ... of type int32}). A literal too
 * large for a float is read as a placeholder float that {@link #overflowed} recognizes, so that
 * the decoder of a built-in kind can reject it with the error of the field's Go type (or drop
 * it with an unknown field, as Go does). Mutable while the body is read, then only read.
 */
public final class NumberLiterals {
  /** For values that were not read from JSON text: numbers are written as Go writes them. */
  public static final NumberLiterals NONE = new NumberLiterals();

  private final Map<Long, String> texts = new HashMap<>();
  private final Map<Long, String> overflows = new HashMap<>();
  private double nextPlaceholder = Double.MAX_VALUE;

  /**
   * Records the literal a float was read from; the first one wins.
   *
   * @param d the float
   * @param text the literal
   */
  public void record(double d, String text) {
    texts.putIfAbsent(Double.doubleToRawLongBits(d), text);
  }

  /**
   * A placeholder for a literal no float can hold.
   *
   * @param text the literal
   * @return a distinct placeholder float, recorded with its literal
   */
  public double overflow(String text) {
    // the largest finite floats: numbers nobody sends next to an overflowing one
    double placeholder = nextPlaceholder;
    nextPlaceholder = Math.nextDown(nextPlaceholder);
    overflows.put(Double.doubleToRawLongBits(placeholder), text);
    return placeholder;
  }

  /**
   * Whether any literal overflowed.
   *
   * @return true when a placeholder was handed out
   */
  public boolean hasOverflow() {
    return !overflows.isEmpty();
  }

  /**
   * Whether {@code f} is a placeholder of an overflowing literal.
   *
   * @param f the float value
   * @return true for a placeholder
   */
  public boolean overflowed(FloatValue f) {
    return !overflows.isEmpty() && overflows.containsKey(Double.doubleToRawLongBits(f.value()));
  }

  /**
   * The literal {@code f} was read from, or Go's encoding of it.
   *
   * @param f the float value
   * @return the text
   */
  public String text(FloatValue f) {
    long bits = Double.doubleToRawLongBits(f.value());
    String t = overflows.isEmpty() ? null : overflows.get(bits);
    if (t == null && !texts.isEmpty()) {
      t = texts.get(bits);
    }
    return t != null ? t : Json.formatFloat(f.value());
  }
}
