/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import java.util.List;

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

  private CostLimits() {}

  /**
   * Whether evaluating {@code expressions} must count costs: one could exceed the per-call
   * limit, or all together the smallest budget they share.
   */
  static boolean tracked(List<PolicyExpression> expressions) {
    long total = 0;
    for (PolicyExpression e : expressions) {
      long max = e.maxCost();
      if (max > PER_CALL_LIMIT) {
        return true;
      }
      total = Long.MAX_VALUE - total < max ? Long.MAX_VALUE : total + max;
    }
    return total > MATCH_CONDITIONS_BUDGET;
  }
}
