/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.tainteviction;

import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's toleration matching for eviction: {@code Toleration.ToleratesTaint}
 * (k8s.io/api/core/v1/toleration.go, with the alpha comparison operators off, as by default),
 * {@code GetMatchingTolerations} (pkg/apis/core/v1/helper) and the taint eviction controller's
 * {@code getMinTolerationTime}. Taints and tolerations are the API's maps.
 */
final class Tolerations {
  /** What {@link #minTolerationSeconds} returns for tolerations that never run out. */
  static final long FOREVER = -1;

  private Tolerations() {}

  /** Whether {@code toleration} tolerates {@code taint}. */
  static boolean tolerates(Value toleration, Value taint) {
    String effect = Nested.str(toleration, "effect");
    if (!effect.isEmpty() && !effect.equals(Nested.str(taint, "effect"))) {
      return false;
    }
    String key = Nested.str(toleration, "key");
    if (!key.isEmpty() && !key.equals(Nested.str(taint, "key"))) {
      return false;
    }
    return switch (Nested.str(toleration, "operator")) {
      case "", "Equal" -> Nested.str(toleration, "value").equals(Nested.str(taint, "value"));
      case "Exists" -> true;
      // Lt and Gt need the TaintTolerationComparisonOperators gate, off by default
      default -> false;
    };
  }

  /**
   * {@code GetMatchingTolerations}: for each taint the first toleration that tolerates it, or
   * empty when some taint is not tolerated.
   */
  static Optional<List<Value>> matching(List<Value> taints, List<Value> tolerations) {
    List<Value> used = new ArrayList<>();
    for (Value taint : taints) {
      Value found = null;
      for (Value t : tolerations) {
        if (tolerates(t, taint)) {
          found = t;
          break;
        }
      }
      if (found == null) {
        return Optional.empty();
      }
      used.add(found);
    }
    return Optional.of(used);
  }

  /**
   * {@code getMinTolerationTime}: the least {@code tolerationSeconds} of {@code tolerations}; 0
   * when there are none or one is 0 or less; {@link #FOREVER} when none has seconds.
   */
  static long minTolerationSeconds(List<Value> tolerations) {
    if (tolerations.isEmpty()) {
      return 0;
    }
    long min = Long.MAX_VALUE;
    for (Value t : tolerations) {
      if (Nested.has(t, "tolerationSeconds")) {
        long seconds = Nested.integer(t, "tolerationSeconds");
        if (seconds <= 0) {
          return 0;
        }
        min = Math.min(min, seconds);
      }
    }
    return min == Long.MAX_VALUE ? FOREVER : min;
  }
}
