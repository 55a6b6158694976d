/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.cel.internal.KubeEnvironment;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A CEL expression compiled once in the Kubernetes CEL environment (the standard library,
 * optionals, two-variable comprehensions, the strings, sets and lists extensions and kube's
 * regex and lists libraries) and evaluated many times over apiserver4j values. Variables are
 * dynamically typed.
 *
 * <p>Immutable and thread-safe.
 */
public final class CelProgram {
  private final String expression;
  private final List<String> variables;
  private final KubeEnvironment.Compiled compiled;

  private CelProgram(String expression, List<String> variables,
      KubeEnvironment.Compiled compiled) {
    this.expression = expression;
    this.variables = variables;
    this.compiled = compiled;
  }

  /**
   * Compiles {@code expression} with the given variables declared.
   *
   * @param expression the CEL source
   * @param variables the variable names, each declared {@code dyn}
   * @return the checked program, safe to evaluate from many threads
   * @throws CelException of kind {@link CelException.Kind#COMPILE} with the CEL compiler's
   *     message when the expression does not parse or type-check
   */
  public static CelProgram compile(String expression, List<String> variables) {
    return compile(expression, variables, List.of());
  }

  /**
   * Compiles {@code expression} with {@code variables} declared as {@code dyn} and
   * {@code optionalVariables} as {@code optional_type(dyn)} (kube's {@code optionalOldSelf}).
   *
   * @param expression the CEL source
   * @param variables the variables declared {@code dyn}
   * @param optionalVariables the variables declared {@code optional_type(dyn)}
   * @return the checked program
   * @throws CelException of kind {@link CelException.Kind#COMPILE}
   */
  public static CelProgram compile(String expression, List<String> variables,
      List<String> optionalVariables) {
    return compile(expression, variables, optionalVariables, Map.of());
  }

  /**
   * Like {@link #compile(String, List, List)}, also checking that fields selected from the
   * variables in {@code types} exist ({@code self.a.b}, {@code has(self.a)}); a missing one is
   * a compile error with cel-go's message ({@code ERROR: <input>:1:5: undefined field 'x'}).
   *
   * @param expression the CEL source
   * @param variables the variables declared {@code dyn}
   * @param optionalVariables the variables declared {@code optional_type(dyn)}
   * @param types the schema-derived types of some variables, for field checks and cost estimates
   * @return the checked program
   * @throws CelException of kind {@link CelException.Kind#COMPILE}
   */
  public static CelProgram compile(String expression, List<String> variables,
      List<String> optionalVariables, Map<String, CelObjectType> types) {
    requireNonNull(expression, "expression");
    requireNonNull(variables, "variables");
    requireNonNull(optionalVariables, "optionalVariables");
    requireNonNull(types, "types");
    List<String> all = new java.util.ArrayList<>(variables);
    all.addAll(optionalVariables);
    return new CelProgram(expression, List.copyOf(all),
        KubeEnvironment.compile(expression, variables, optionalVariables, types));
  }

  /**
   * Compiles a MutatingAdmissionPolicy expression: as {@link #compile(String, List)}, where the
   * object constructions kube's mutation environment allows ({@code Object{...}},
   * {@code Object.spec{...}}, {@code JSONPatch{...}}) evaluate to maps of their fields.
   *
   * @param expression the CEL source
   * @param variables the variable names, each declared {@code dyn}
   * @return the checked program
   * @throws CelException of kind {@link CelException.Kind#COMPILE}
   */
  public static CelProgram compileMutation(String expression, List<String> variables) {
    requireNonNull(expression, "expression");
    requireNonNull(variables, "variables");
    return new CelProgram(expression, List.copyOf(variables),
        KubeEnvironment.compile(expression, variables, List.of(), Map.of(), true));
  }

  /**
   * The source the program was compiled from.
   *
   * @return the expression as given
   */
  public String expression() {
    return expression;
  }

  /**
   * The variables declared {@code dyn}.
   *
   * @return the names, in declaration order
   */
  public List<String> variables() {
    return variables;
  }

  /**
   * Whether the type checker allows the expression to evaluate to {@code typeName}
   * ({@code "bool"}, {@code "string"}, ...): its result type is that type or dynamic.
   *
   * @param typeName a CEL type name
   * @return true when the result type is {@code typeName} or {@code dyn}
   */
  public boolean mayEvaluateTo(String typeName) {
    return compiled.mayEvaluateTo(requireNonNull(typeName, "typeName"));
  }

  /**
   * The checked result type.
   *
   * @return the type as CEL names it ({@code bool}, {@code dyn}, ...)
   */
  public String resultTypeName() {
    return compiled.resultTypeName();
  }

  /**
   * Whether the expression refers to a variable (e.g. {@code oldSelf} in a transition rule).
   *
   * @param name the variable name
   * @return true when the expression mentions {@code name} as an identifier
   */
  public boolean references(String name) {
    return compiled.identifiers().contains(name);
  }

  /**
   * Evaluates with the given variable values; a variable bound to an empty {@code Optional}
   * (as a {@code Value}) is CEL's {@code optional.none()}. Absent variables are errors.
   *
   * @param bindings the variables' values by name
   * @return the result as a value (bool, int, double, string, list, map or null)
   * @throws CelException of kind {@link CelException.Kind#EVALUATION}
   */
  public Value evaluate(Map<String, Value> bindings) {
    return compiled.evaluate(requireNonNull(bindings, "bindings"), Map.of());
  }

  /**
   * Like {@link #evaluate(Map)}, with some variables bound to CEL optionals
   * ({@code optionalOldSelf}).
   *
   * @param bindings the plain variables' values by name
   * @param optionals the optional variables' values; empty is {@code optional.none()}
   * @return the result as a value
   * @throws CelException of kind {@link CelException.Kind#EVALUATION}
   */
  public Value evaluate(Map<String, Value> bindings, Map<String, Optional<Value>> optionals) {
    return compiled.evaluate(requireNonNull(bindings, "bindings"),
        requireNonNull(optionals, "optionals"));
  }

  /**
   * Evaluates with prepared bindings (see {@link CelBindings}).
   *
   * @param bindings values, lazy maps and the authorizer
   * @return the result as a value
   * @throws CelException of kind {@link CelException.Kind#EVALUATION}
   */
  public Value evaluate(CelBindings bindings) {
    return compiled.evaluate(requireNonNull(bindings, "bindings").prepared());
  }

  /**
   * The static cost range of the expression, as kube-apiserver estimates it (cel-go's
   * {@code checker.Cost} with Kubernetes' library estimators), where the sizes of strings, lists
   * and maps come from the declared types' {@link CelObjectType#maxElements()} and are unbounded
   * for untyped variables. Computed once.
   *
   * @return the least and greatest cost
   */
  public CelCostEstimate estimatedCost() {
    return compiled.estimatedCost();
  }

  /**
   * The static cost range when every string (in characters), list and map (in elements)
   * reachable from the variables {@code bounded} is at most {@code extent} long: an upper bound
   * of the runtime cost of evaluating on such values. Lets a caller skip counting costs when
   * the values at hand cannot reach a limit.
   *
   * @param bounded the variables whose reachable sizes are bounded
   * @param extent the bound on every size reachable from them
   * @return the least and greatest cost under that bound
   */
  public CelCostEstimate estimatedCost(java.util.Set<String> bounded, long extent) {
    return compiled.estimatedCost(bounded, extent);
  }

  /**
   * Evaluates while counting cel-go's runtime cost, failing once it exceeds {@code costLimit}
   * (kube's per-call limit).
   *
   * @param bindings the plain variables' values by name
   * @param optionals the optional variables' values; empty is {@code optional.none()}
   * @param costLimit the greatest runtime cost allowed
   * @return the value and the cost spent
   * @throws CelException of kind {@link CelException.Kind#COST_LIMIT} past the limit, or
   *     {@link CelException.Kind#EVALUATION}; both carry the cost spent
   */
  public CelResult evaluate(Map<String, Value> bindings, Map<String, Optional<Value>> optionals,
      long costLimit) {
    return compiled.evaluate(requireNonNull(bindings, "bindings"),
        requireNonNull(optionals, "optionals"), costLimit);
  }

  /**
   * Like {@link #evaluate(CelBindings)}, counting the runtime cost up to {@code costLimit}.
   *
   * @param bindings values, lazy maps and the authorizer
   * @param costLimit the greatest runtime cost allowed
   * @return the value and the cost spent
   * @throws CelException of kind {@link CelException.Kind#COST_LIMIT} past the limit, or
   *     {@link CelException.Kind#EVALUATION}
   */
  public CelResult evaluate(CelBindings bindings, long costLimit) {
    return compiled.evaluate(requireNonNull(bindings, "bindings").prepared(), costLimit);
  }

  @Override
  public String toString() {
    return expression;
  }
}
