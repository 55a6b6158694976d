/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel.internal;

/**
 * A size or cost range with cel-go's saturating arithmetic ({@code SizeEstimate} and
 * {@code CostEstimate} share it); {@link Long#MAX_VALUE} is the unbounded end.
 */
record CostRange(long min, long max) {
  static final long UNBOUNDED = Long.MAX_VALUE;
  static final CostRange ZERO = new CostRange(0, 0);
  static final CostRange ONE = new CostRange(1, 1);
  static final CostRange UNKNOWN = new CostRange(0, UNBOUNDED);

  static CostRange fixed(long v) {
    return new CostRange(v, v);
  }

  CostRange add(CostRange o) {
    return new CostRange(add(min, o.min), add(max, o.max));
  }

  CostRange multiply(CostRange o) {
    return new CostRange(multiply(min, o.min), multiply(max, o.max));
  }

  /** Each end times {@code factor}, rounded up (cel-go's {@code MultiplyByCostFactor}). */
  CostRange multiplyByCostFactor(double factor) {
    return new CostRange(byFactor(min, factor), byFactor(max, factor));
  }

  CostRange union(CostRange o) {
    return new CostRange(Math.min(min, o.min), Math.max(max, o.max));
  }

  static long add(long x, long y) {
    long r = x + y;
    return r < 0 ? UNBOUNDED : r;
  }

  static long multiply(long x, long y) {
    if (x == 0 || y == 0) {
      return 0;
    }
    return x > UNBOUNDED / y ? UNBOUNDED : x * y;
  }

  static long byFactor(long x, double factor) {
    double r = Math.ceil((double) x * factor);
    return r >= (double) UNBOUNDED ? UNBOUNDED : (long) r;
  }
}
