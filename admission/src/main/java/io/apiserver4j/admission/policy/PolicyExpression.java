/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * One CEL expression of a policy, compiled once: the program, or kube's compilation error that
 * every evaluation then reports (a policy that does not compile still takes part, and its
 * failurePolicy decides).
 */
final class PolicyExpression {
  private final String expression;
  private final CelProgram program;
  private final String compileError;

  private PolicyExpression(String expression, CelProgram program, String compileError) {
    this.expression = expression;
    this.program = program;
    this.compileError = compileError;
  }

  /**
   * Compiles with {@code variables} declared; {@code returnTypes} (empty for any) are the types
   * the result may have, checked as kube does ({@code must evaluate to bool but got int}).
   */
  static PolicyExpression compile(String expression, List<String> variables,
      String... returnTypes) {
    return compile(false, expression, variables, returnTypes);
  }

  /** A mutation's expression: object constructions ({@code Object{..}}, {@code JSONPatch{..}}). */
  static PolicyExpression compileMutation(String expression, List<String> variables) {
    return compile(true, expression, variables);
  }

  private static PolicyExpression compile(boolean mutation, String expression,
      List<String> variables, String... returnTypes) {
    CelProgram program;
    try {
      program = mutation ? CelProgram.compileMutation(expression, variables)
          : CelProgram.compile(expression, variables);
    } catch (CelException e) {
      return new PolicyExpression(expression, null, "compilation failed: " + e.getMessage());
    }
    if (returnTypes.length > 0) {
      boolean ok = false;
      for (String t : returnTypes) {
        ok |= program.mayEvaluateTo(t);
      }
      if (!ok) {
        String reason = returnTypes.length == 1
            ? "must evaluate to " + returnTypes[0] + " but got " + program.resultTypeName()
            : "must evaluate to one of " + List.of(returnTypes) + " but got "
                + program.resultTypeName();
        return new PolicyExpression(expression, null, reason);
      }
    }
    return new PolicyExpression(expression, program, null);
  }

  String expression() {
    return expression;
  }

  /** Whether the compiled expression reads variable {@code name}. */
  boolean references(String name) {
    return program != null && program.references(name);
  }

  /** The compile error without kube's evaluation prefix; null when it compiled. */
  String compileError() {
    return compileError;
  }

  /** The static max cost (0 when it did not compile). */
  long maxCost() {
    return program == null ? 0 : program.estimatedCost().max();
  }

  /** The static max cost when the request's values are at most {@code extent} long. */
  long maxCost(long extent) {
    return program == null ? 0 : program.estimatedCost(CostLimits.INPUTS, extent).max();
  }

  /**
   * The result, or kube's error text for a compile or runtime failure (the per-call limit's
   * included); {@link Evaluation#outOfBudget()} when the activation's budget ran out.
   */
  Evaluation evaluate(PolicyActivation activation) {
    if (compileError != null) {
      return Evaluation.error("compilation error: " + compileError);
    }
    try {
      return new Evaluation(activation.evaluate(program), null);
    } catch (PolicyActivation.OutOfBudget e) {
      return Evaluation.OUT_OF_BUDGET;
    } catch (CelException e) {
      if (activation.outOfBudget()) {
        // a lazily computed variable ran out of the budget inside this evaluation
        return Evaluation.OUT_OF_BUDGET;
      }
      return Evaluation.error("expression '" + expression + "' resulted in error: "
          + e.getMessage());
    }
  }

  /** Evaluates a variable: kube's composited-variable texts instead of the expression one. */
  Value evaluateVariable(String name, PolicyActivation activation) {
    if (compileError != null) {
      throw new CelException(CelException.Kind.EVALUATION, "composited variable \"" + name
          + "\" fails to compile: " + compileError, null);
    }
    try {
      return activation.evaluate(program);
    } catch (CelException e) {
      throw new CelException(CelException.Kind.EVALUATION, "composited variable \"" + name
          + "\" fails to evaluate: " + e.getMessage(), e);
    }
  }

  /** A value, or the error text kube reports. */
  record Evaluation(Value value, String error) {
    /** The budget ran out: kube stops evaluating the expressions that share it. */
    static final Evaluation OUT_OF_BUDGET = new Evaluation(null, CostLimits.OUT_OF_BUDGET);

    static Evaluation error(String message) {
      return new Evaluation(null, message);
    }

    boolean outOfBudget() {
      return this == OUT_OF_BUDGET;
    }

    boolean failed() {
      return error != null;
    }

    boolean isTrue() {
      return value instanceof io.apiserver4j.core.BooleanValue b && b.value();
    }

    boolean isFalse() {
      return value instanceof io.apiserver4j.core.BooleanValue b && !b.value();
    }
  }
}
