/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

/**
 * The static cost range of a checked expression in cel-go's cost units (one unit is roughly one
 * field access or simple call), as cel-go's {@code checker.Cost} with Kubernetes' library
 * estimators computes it. {@link Long#MAX_VALUE} stands for unbounded (cel-go's
 * {@code math.MaxUint64}); arithmetic saturates there.
 *
 * @param min the least cost of any evaluation
 * @param max the greatest cost of any evaluation of values that fit kube's size bounds
 */
public record CelCostEstimate(long min, long max) {
  /**
   * Checks that the costs are not negative.
   *
   * @param min see the record component
   * @param max see the record component
   * @throws IllegalArgumentException naming both costs when one is negative
   */
  public CelCostEstimate {
    if (min < 0 || max < 0) {
      throw new IllegalArgumentException("costs are not negative: " + min + ", " + max);
    }
  }
}
