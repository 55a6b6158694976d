/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * kube's CEL cost limits for CRDs (apiextensions-apiserver's validation.go, cel_validation.go and
 * k8s.io/apiserver/pkg/apis/cel/config.go): the static per-expression and per-CRD limits, the
 * cardinality of a schema node (how many times its rules may run per object), the runtime
 * per-call limit and per-object budget, and the cost error message. {@link Long#MAX_VALUE} stands
 * for kube's {@code math.MaxUint64} (saturation); -1 for an unbounded cardinality.
 */
public final class CelCostLimits {
  /** Largest static cost of one expression (StaticEstimatedCostLimit). */
  public static final long STATIC_ESTIMATED_COST_LIMIT = 10_000_000;
  /** Largest static cost of all expressions of a schema (StaticEstimatedCRDCostLimit). */
  public static final long STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000;
  /** Runtime limit of one evaluation (celconfig.PerCallLimit). */
  public static final long PER_CALL_LIMIT = 1_000_000;
  /** Runtime budget of all rules on one object (celconfig.RuntimeCELCostBudget). */
  public static final long RUNTIME_CEL_COST_BUDGET = 10_000_000;
  /** An unbounded cardinality. */
  public static final long UNBOUNDED = -1;

  private CelCostLimits() {}

  /** kube's {@code multiplyWithOverflowGuard}. */
  static long multiply(long base, long cardinality) {
    if (base == 0) {
      return 0;
    }
    return Long.MAX_VALUE / base < cardinality ? Long.MAX_VALUE : base * cardinality;
  }

  /**
   * The cardinality of a child of {@code parent} (kube's {@code childContext}): the parent's
   * times the most elements the parent may hold (1 for objects and scalars, maxItems or
   * maxProperties for lists and maps, unbounded without them).
   */
  static long childCardinality(SchemaNode parent, long parentCardinality) {
    if (parentCardinality == UNBOUNDED) {
      return UNBOUNDED;
    }
    long max;
    switch (parent.type) {
      case "object":
        if (parent.raw.containsKey("additionalProperties")) {
          if (parent.maxProperties == null) {
            return UNBOUNDED;
          }
          max = Math.max(0, parent.maxProperties);
        } else {
          max = 1;
        }
        break;
      case "array":
        if (parent.maxItems == null) {
          return UNBOUNDED;
        }
        max = Math.max(0, parent.maxItems);
        break;
      default:
        max = 1;
    }
    return multiply(parentCardinality, max);
  }

  /**
   * The static cost of an expression on {@code node}: its max cost times the node's cardinality,
   * or times kube's unbounded-cardinality multiplier when unbounded.
   */
  static long expressionCost(long maxCost, SchemaNode node, long cardinality) {
    return multiply(maxCost, cardinality != UNBOUNDED ? cardinality : node.maxCardinality());
  }

  /** kube's {@code getCostErrorMessage}. */
  static String costErrorMessage(String costName, long cost, long limit) {
    double factor = (double) cost / (double) limit;
    String f;
    if (factor > 100.0) {
      f = "more than 100x";
    } else if (factor < 1.5) {
      f = new BigDecimal(factor).setScale(6, RoundingMode.HALF_EVEN).toPlainString() + "x";
    } else {
      f = new BigDecimal(factor).setScale(1, RoundingMode.HALF_EVEN).toPlainString() + "x";
    }
    return String.format(Locale.ROOT, "%s exceeds budget by factor of %s (try simplifying the"
        + " rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and"
        + " strings are declared)", costName, f);
  }

  /** One expression's share of the total. */
  record RuleCost(String path, long cost) {}

  /**
   * kube's {@code TotalCost}: the saturating sum of the expression costs of a schema and its (at
   * most four) most expensive expressions of at least 1% of the per-CRD limit. Mutable, for one
   * validation.
   */
  static final class TotalCost {
    private long total;
    private final List<RuleCost> mostExpensive = new ArrayList<>();
    private final boolean perExpressionSuppressed;

    TotalCost() {
      this(false);
    }

    /** @param perExpressionSuppressed an unchanged version: no per-expression limit */
    TotalCost(boolean perExpressionSuppressed) {
      this.perExpressionSuppressed = perExpressionSuppressed;
    }

    boolean perExpressionSuppressed() {
      return perExpressionSuppressed;
    }

    void observe(String path, long cost) {
      total = Long.MAX_VALUE - total < cost ? Long.MAX_VALUE : total + cost;
      if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) {
        return;
      }
      mostExpensive.add(new RuleCost(path, cost));
      mostExpensive.sort(Comparator.comparingLong(RuleCost::cost).reversed());
      if (mostExpensive.size() > 4) {
        mostExpensive.remove(4);
      }
    }

    long total() {
      return total;
    }

    List<RuleCost> mostExpensive() {
      return List.copyOf(mostExpensive);
    }
  }
}
