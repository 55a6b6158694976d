/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Set;

/**
 * kube's runtime CEL cost limits for admission policies (k8s.io/apiserver/pkg/apis/cel
 * config.go): the per-expression limit, the budget of a policy's validations (and their
 * messageExpressions), of its audit annotations and of one mutation, and of match conditions.
 * Costs are counted only for policies whose estimated costs could reach a limit.
 */
final class CostLimits {
  /** celconfig.PerCallLimit. */
  static final long PER_CALL_LIMIT = 1_000_000;
  /** celconfig.RuntimeCELCostBudget. */
  static final long RUNTIME_BUDGET = 10_000_000;
  /** celconfig.RuntimeCELCostBudgetMatchConditions. */
  static final long MATCH_CONDITIONS_BUDGET = 2_500_000;
  /** kube's error when a budget is spent (cel.ErrOutOfBudget's detail). */
  static final String OUT_OF_BUDGET = "validation failed due to running out of cost budget, no"
      + " further validation rules will be run";

  /** The variables a request supplies as values (not computed from expressions). */
  static final Set<String> INPUTS =
      Set.of("object", "oldObject", "request", "params", "namespaceObject");
  /** No request carries a longer string, list or map (kube's max request size, 3 MiB). */
  private static final long MAX_EXTENT = 3L * 1024 * 1024;

  private CostLimits() {}

  /**
   * The largest extent of the {@link #INPUTS} (see {@link #extent}) at which evaluating
   * {@code expressions} cannot reach a limit, so need not count costs: -1 when counting is
   * always needed, {@code Long.MAX_VALUE} when never. The estimates grow with the extent, so a
   * binary search finds it.
   */
  static long untrackedUpTo(List<PolicyExpression> expressions) {
    if (!tracked(expressions, Long.MAX_VALUE)) {
      return Long.MAX_VALUE;
    }
    if (tracked(expressions, 0)) {
      return -1;
    }
    long lo = 0;
    long hi = MAX_EXTENT;
    if (!tracked(expressions, hi)) {
      return hi;
    }
    while (hi - lo > 1) {
      long mid = (lo + hi) >>> 1;
      if (tracked(expressions, mid)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return lo;
  }

  /**
   * Whether an evaluation must count costs, given {@link #untrackedUpTo} of its expressions and
   * the extent of the request's values (asked only when it decides).
   */
  static boolean counted(long untrackedUpTo, java.util.function.LongSupplier extent) {
    return untrackedUpTo != Long.MAX_VALUE
        && (untrackedUpTo < 0 || extent.getAsLong() > untrackedUpTo);
  }

  private static boolean tracked(List<PolicyExpression> expressions, long extent) {
    long total = 0;
    for (PolicyExpression e : expressions) {
      long max = extent == Long.MAX_VALUE ? e.maxCost() : e.maxCost(extent);
      if (max > PER_CALL_LIMIT) {
        return true;
      }
      total = Long.MAX_VALUE - total < max ? Long.MAX_VALUE : total + max;
    }
    return total > MATCH_CONDITIONS_BUDGET;
  }

  /**
   * The length of the longest string (in UTF-16 units, at least its CEL size), list or map
   * (in elements) in {@code values}, map keys included.
   */
  static long extent(Value... values) {
    long max = 0;
    Deque<Value> todo = new ArrayDeque<>();
    for (Value v : values) {
      if (v != null) {
        todo.push(v);
      }
    }
    while (!todo.isEmpty()) {
      Value v = todo.pop();
      if (v instanceof StringValue s) {
        max = Math.max(max, s.value().length());
      } else if (v instanceof MapValue m) {
        max = Math.max(max, m.size());
        for (int i = 0; i < m.size(); i++) {
          max = Math.max(max, m.keyAt(i).length());
          todo.push(m.valueAt(i));
        }
      } else if (v instanceof ListValue l) {
        max = Math.max(max, l.size());
        for (int i = 0; i < l.size(); i++) {
          todo.push(l.get(i));
        }
      }
    }
    return max;
  }

  /**
   * Whether evaluating {@code expressions} must count costs: one could exceed the per-call
   * limit, or all together the smallest budget they share.
   */
  static boolean tracked(List<PolicyExpression> expressions) {
    return tracked(expressions, Long.MAX_VALUE);
  }
}
