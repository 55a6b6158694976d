/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.cel.CelBindings;
import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A webhook's or a policy's {@code matchConditions}: named CEL expressions, compiled once,
 * that must all hold for the request to be admitted by it. Evaluated as kube's
 * {@code matchconditions.Matcher}: the first condition that is {@code false} excludes the request
 * (even when others fail); otherwise any condition that failed (or did not compile) makes the
 * result {@link Result.Failed}, which the caller resolves by its failure policy (Fail: the request
 * is forbidden with the message; Ignore: the request is not matched).
 *
 * <p>Immutable and thread-safe.
 */
public final class MatchConditions {
  private static final MatchConditions NONE = new MatchConditions(List.of());

  /**
   * A condition as written.
   *
   * @param name the condition's name, reported in errors
   * @param expression the CEL expression, of type bool
   */
  public record Condition(String name, String expression) {
    /**
     * Checks that no component is null.
     *
     * @param name see the record component
     * @param expression see the record component
     * @throws NullPointerException when a component is null
     */
    public Condition {
      requireNonNull(name, "name");
      requireNonNull(expression, "expression");
    }
  }

  /** The outcome of evaluating the conditions. */
  public sealed interface Result {
    /** Every condition held (or none is declared). */
    record Matched() implements Result {}

    /** Condition {@code conditionName} was false: the request is not matched. */
    record NotMatched(String conditionName) implements Result {}

    /**
     * Some condition failed and none was false; {@code message} is kube's (one error's text, or
     * several as {@code [a, b]}).
     */
    record Failed(String message) implements Result {}
  }

  private static final Result MATCHED = new Result.Matched();

  private record Compiled(Condition condition, CelProgram program, String compileError) {}

  private final List<Compiled> compiled;

  private MatchConditions(List<Compiled> compiled) {
    this.compiled = compiled;
  }

  /**
   * No conditions: always {@link Result.Matched}.
   *
   * @return the empty conditions
   */
  public static MatchConditions none() {
    return NONE;
  }

  /**
   * Compiles the conditions with {@code variables} declared (webhooks: {@code object},
   * {@code oldObject}, {@code request}, {@code authorizer}). A condition that does not compile is kept and fails
   * every evaluation with kube's {@code compilation error: ...}; writes of configurations are
   * validated so that this only happens to objects written past validation.
   *
   * @param conditions the conditions, in order
   * @param variables the variables the expressions may use
   * @return the compiled conditions
   */
  public static MatchConditions compile(List<Condition> conditions, List<String> variables) {
    requireNonNull(conditions, "conditions");
    requireNonNull(variables, "variables");
    if (conditions.isEmpty()) {
      return NONE;
    }
    List<Compiled> out = new ArrayList<>();
    for (Condition c : conditions) {
      try {
        out.add(new Compiled(c, CelProgram.compile(c.expression(), variables), null));
      } catch (CelException e) {
        out.add(new Compiled(c, null, e.getMessage()));
      }
    }
    return new MatchConditions(List.copyOf(out));
  }

  /**
   * Reads {@code matchConditions} ({@code name}, {@code expression}) of a webhook or policy.
   *
   * @param owner the webhook or policy spec
   * @param variables the variables the expressions may use
   * @return the compiled conditions; none when the field is absent
   */
  public static MatchConditions fromValue(Value owner, List<String> variables) {
    List<Condition> conditions = new ArrayList<>();
    for (Value c : Nested.list(owner, "matchConditions")) {
      conditions.add(new Condition(Nested.str(c, "name"), Nested.str(c, "expression")));
    }
    return compile(conditions, variables);
  }

  /**
   * Whether no condition is declared.
   *
   * @return true when every request matches
   */
  public boolean isEmpty() {
    return compiled.isEmpty();
  }

  /**
   * The conditions as written.
   *
   * @return the conditions, in order
   */
  public List<Condition> conditions() {
    return compiled.stream().map(Compiled::condition).toList();
  }

  /**
   * Evaluates the conditions in order.
   *
   * @param bindings a value for every declared variable ({@code Value.nullValue()} for an
   *     absent object)
   * @return the outcome
   */
  public Result evaluate(Map<String, Value> bindings) {
    requireNonNull(bindings, "bindings");
    return evaluate(p -> p.evaluate(bindings));
  }

  /**
   * Evaluates the conditions in order, with kube's {@code authorizer} and
   * {@code authorizer.requestResource} bound to {@code authorizer} (conditions compiled with
   * {@code authorizer} declared).
   *
   * @param bindings a value for every other declared variable
   * @param authorizer the request's authorizer
   * @return the outcome
   */
  public Result evaluate(Map<String, Value> bindings, CelAuthorizer.ForRequest authorizer) {
    requireNonNull(bindings, "bindings");
    requireNonNull(authorizer, "authorizer");
    CelBindings prepared = CelBindings.of(bindings, Map.of(), authorizer);
    return evaluate(p -> p.evaluate(prepared));
  }

  private Result evaluate(Function<CelProgram, Value> evaluation) {
    List<String> errors = new ArrayList<>();
    for (Compiled c : compiled) {
      if (c.program() == null) {
        errors.add("compilation error: " + c.compileError());
        continue;
      }
      Value result;
      try {
        result = evaluation.apply(c.program());
      } catch (CelException e) {
        errors.add("expression '" + c.condition().expression() + "' resulted in error: "
            + e.getMessage());
        continue;
      }
      if (result instanceof BooleanValue b && !b.value()) {
        return new Result.NotMatched(c.condition().name());
      }
    }
    if (errors.isEmpty()) {
      return MATCHED;
    }
    return new Result.Failed(errors.size() == 1 ? errors.get(0)
        : "[" + String.join(", ", errors) + "]");
  }
}
