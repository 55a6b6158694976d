/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.cel.CelBindings;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelLazyMap;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.cel.CelResult;
import io.apiserver4j.core.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The CEL variables of one evaluation (one request, binding and parameter object):
 * {@code object}, {@code oldObject}, {@code request}, {@code params}, {@code namespaceObject}
 * and the lazily computed {@code variables}, each computed at most once. Used by one thread.
 */
final class PolicyActivation {
  /**
   * The variables an expression may use, as kube declares them: {@code params} only when the
   * policy has a paramKind, {@code authorizer} for validations, conditions and variables but not
   * for messageExpressions and audit annotations.
   */
  static List<String> declared(boolean params, boolean authorizer) {
    List<String> names = new java.util.ArrayList<>(
        List.of("object", "oldObject", "request", "namespaceObject", "variables"));
    if (params) {
      names.add("params");
    }
    if (authorizer) {
      names.add("authorizer");
    }
    return List.copyOf(names);
  }

  private final CelBindings bindings;

  PolicyActivation(Map<String, Value> values, List<String> variableNames,
      List<PolicyExpression> variableExpressions, CelAuthorizer.ForRequest authorizer) {
    Map<String, CelLazyMap> lazy =
        Map.of("variables", new Variables(variableNames, variableExpressions, this));
    this.bindings = CelBindings.of(values, lazy, authorizer);
  }

  static PolicyActivation of(AdmissionAttributes a, Value request, Value params,
      Value namespaceObject, List<String> variableNames, List<PolicyExpression> variables,
      CelAuthorizer.ForRequest authorizer) {
    Map<String, Value> b = new HashMap<>(8);
    b.put("object", a.object().<Value>map(o -> o).orElse(Value.nullValue()));
    b.put("oldObject", a.oldObject().<Value>map(o -> o).orElse(Value.nullValue()));
    b.put("request", request);
    b.put("params", params);
    b.put("namespaceObject", namespaceObject);
    return new PolicyActivation(b, variableNames, variables, authorizer);
  }

  /** Thrown when an evaluation spends more than the remaining budget. */
  static final class OutOfBudget extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutOfBudget() {
      super(CostLimits.OUT_OF_BUDGET, null, false, false);
    }
  }

  private boolean tracked;
  private long remaining;
  private boolean outOfBudget;

  /**
   * Counts the cost of further evaluations (lazily computed variables included) against
   * {@code budget}, each evaluation limited to kube's per-call limit.
   */
  void track(long budget) {
    tracked = true;
    remaining = budget;
    outOfBudget = false;
  }

  /** Whether an evaluation ran out of the budget set by {@link #track(long)}. */
  boolean outOfBudget() {
    return outOfBudget;
  }

  Value evaluate(CelProgram program) {
    if (!tracked) {
      return program.evaluate(bindings);
    }
    if (outOfBudget) {
      throw new OutOfBudget();
    }
    CelResult r;
    try {
      r = program.evaluate(bindings, CostLimits.PER_CALL_LIMIT);
    } catch (CelException e) {
      spend(e.cost());
      throw e;
    }
    spend(r.cost());
    return r.value();
  }

  private void spend(long cost) {
    if (cost > remaining) {
      outOfBudget = true;
      remaining = -1;
      throw new OutOfBudget();
    }
    remaining -= cost;
  }

  /** {@code variables}: each computed on first read and kept, failures included. */
  private static final class Variables implements CelLazyMap {
    private static final Object EVALUATING = new Object();

    private final List<String> names;
    private final List<PolicyExpression> expressions;
    private final PolicyActivation activation;
    private final Map<String, Object> results = new HashMap<>();

    Variables(List<String> names, List<PolicyExpression> expressions,
        PolicyActivation activation) {
      this.names = names;
      this.expressions = expressions;
      this.activation = activation;
    }

    @Override
    public List<String> keys() {
      return names;
    }

    @Override
    public Value get(String key) {
      Object r = results.get(key);
      if (r == EVALUATING) {
        throw new CelException(CelException.Kind.EVALUATION,
            "composited variable \"" + key + "\" refers to itself", null);
      }
      if (r == null) {
        results.put(key, EVALUATING);
        try {
          r = expressions.get(names.indexOf(key)).evaluateVariable(key, activation);
        } catch (CelException e) {
          r = e;
        } catch (OutOfBudget e) {
          results.remove(key); // not a result: a later, fresh budget may compute it
          throw e;
        }
        results.put(key, r);
      }
      if (r instanceof CelException e) {
        throw e;
      }
      return (Value) r;
    }
  }
}
