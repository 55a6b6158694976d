/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.Reinvocation;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.Match;
import io.apiserver4j.admission.matching.MatchCriteria;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.apimachinery.patch.JsonPatch;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The MutatingAdmissionPolicies and MutatingAdmissionPolicyBindings
 * (admissionregistration.k8s.io/v1) of one configuration snapshot, compiled, and their mutation
 * of a request's object as kube-apiserver's {@code MutatingAdmissionPolicy} plugin.
 *
 * <p>For each policy whose {@code matchConstraints} match, each binding whose
 * {@code matchResources} match, and each parameter object its {@code paramRef} selects: the
 * {@code matchConditions} decide, then each mutation in order changes the object, and the next
 * sees the result. An {@code ApplyConfiguration} mutation's {@code Object{...}} is merged into
 * the object ({@link PolicyContext#applyConfiguration}); a {@code JSONPatch} mutation's list of
 * {@code JSONPatch{op, path, from, value}} is applied as an RFC 6902 patch. Failures (an
 * expression error, a bad result, a patch that does not apply, missing parameters) are
 * collected and, unless the policy's {@code failurePolicy} is {@code Ignore}, fail the request
 * as kube does: reason Invalid, code 403, message
 * {@code policy '<p>' with binding '<b>' denied request: <error>}.
 *
 * <p><b>Reinvocation</b>, as kube's: a policy with {@code reinvocationPolicy: IfNeeded} runs
 * again (once, in the mutating phase's second round) when the object changed after it ran, by
 * a later policy or a later plugin such as a mutating webhook; the bookkeeping is the request's
 * {@link io.apiserver4j.admission.AdmissionContext#reinvocation}, shared with webhooks. Any
 * applied mutation asks for the second round.
 *
 * <p>Requests for the policy and binding resources themselves are never mutated. Immutable and
 * thread-safe.
 */
public final class MutatingAdmissionPolicies {
  /** kube's plugin name, under which the request's reinvocation state is kept. */
  private static final String PLUGIN = "MutatingAdmissionPolicy";
  private static final MutatingAdmissionPolicies EMPTY =
      new MutatingAdmissionPolicies(List.of(), Map.of());

  private final List<Policy> policies;
  private final Map<String, List<Binding>> bindingsByPolicy;

  /** One mutation: its type and compiled expression. */
  private record Mutation(boolean jsonPatch, PolicyExpression expression) {}

  /** A policy compiled once per spec. */
  private record Policy(String name, MapValue spec, boolean failClosed, boolean reinvokeIfNeeded,
      Optional<CompiledValidatingPolicy.ParamKind> paramKind, MatchCriteria matchConstraints,
      List<PolicyExpression> matchConditions, List<String> variableNames,
      List<PolicyExpression> variables, List<Mutation> mutations, boolean costTracked) {
    // costTracked: evaluations count costs, the estimates could reach kube's limits
    private static List<PolicyExpression> allExpressions(List<PolicyExpression> conditions,
        List<PolicyExpression> variables, List<Mutation> mutations) {
      List<PolicyExpression> all = new ArrayList<>(conditions);
      all.addAll(variables);
      mutations.forEach(m -> all.add(m.expression()));
      return all;
    }

    static Policy of(MapValue policy) {
      MapValue spec = CompiledValidatingPolicy.map(policy.getOrNull("spec"));
      Optional<CompiledValidatingPolicy.ParamKind> paramKind =
          spec.getOrNull("paramKind") instanceof MapValue pk
              ? Optional.of(new CompiledValidatingPolicy.ParamKind(
                  Meta.string(pk, "apiVersion"),
                  Meta.string(pk, "kind")))
              : Optional.empty();
      List<String> declared = PolicyActivation.declared(paramKind.isPresent(), true);
      List<String> varNames = new ArrayList<>();
      List<PolicyExpression> vars = new ArrayList<>();
      for (MapValue v : CompiledValidatingPolicy.maps(spec.getOrNull("variables"))) {
        varNames.add(Meta.string(v, "name"));
        vars.add(PolicyExpression.compile(Meta.string(v, "expression"),
            declared));
      }
      List<PolicyExpression> conditions = new ArrayList<>();
      for (MapValue c : CompiledValidatingPolicy.maps(spec.getOrNull("matchConditions"))) {
        conditions.add(PolicyExpression.compile(
            Meta.string(c, "expression"), declared, "bool"));
      }
      List<Mutation> mutations = new ArrayList<>();
      for (MapValue m : CompiledValidatingPolicy.maps(spec.getOrNull("mutations"))) {
        boolean jsonPatch = "JSONPatch".equals(Meta.string(m, "patchType"));
        MapValue holder = CompiledValidatingPolicy.map(
            m.getOrNull(jsonPatch ? "jsonPatch" : "applyConfiguration"));
        mutations.add(new Mutation(jsonPatch, PolicyExpression.compileMutation(
            Meta.string(holder, "expression"), declared)));
      }
      return new Policy(Meta.metaString(policy, "name"), spec,
          !"Ignore".equals(Meta.string(spec, "failurePolicy")),
          "IfNeeded".equals(Meta.string(spec, "reinvocationPolicy")),
          paramKind,
          MatchCriteria.forPolicy(CompiledValidatingPolicy.map(
              spec.getOrNull("matchConstraints"))),
          List.copyOf(conditions), List.copyOf(varNames), List.copyOf(vars),
          List.copyOf(mutations), CostLimits.tracked(allExpressions(conditions, vars, mutations)));
    }
  }

  private record Binding(String name, MapValue spec, Optional<MatchCriteria> matchResources) {
    static Binding of(MapValue binding) {
      MapValue spec = CompiledValidatingPolicy.map(binding.getOrNull("spec"));
      return new Binding(Meta.metaString(binding, "name"), spec,
          spec.getOrNull("matchResources") instanceof MapValue mr
              ? Optional.of(MatchCriteria.forPolicy(mr)) : Optional.empty());
    }
  }

  private MutatingAdmissionPolicies(List<Policy> policies,
      Map<String, List<Binding>> bindingsByPolicy) {
    this.policies = policies;
    this.bindingsByPolicy = bindingsByPolicy;
  }

  /**
   * No policies: changes nothing.
   *
   * @return the empty set of policies
   */
  public static MutatingAdmissionPolicies empty() {
    return EMPTY;
  }

  /**
   * Compiles the policies and indexes the bindings of a snapshot.
   *
   * @param policies the MutatingAdmissionPolicy objects
   * @param bindings the MutatingAdmissionPolicyBinding objects
   * @return the compiled policies
   */
  public static MutatingAdmissionPolicies of(List<MapValue> policies, List<MapValue> bindings) {
    return EMPTY.update(policies, bindings);
  }

  /**
   * A newer snapshot, reusing the compiled form of every policy whose spec is unchanged.
   *
   * @param policies the MutatingAdmissionPolicy objects
   * @param bindings the MutatingAdmissionPolicyBinding objects
   * @return the compiled policies
   */
  public MutatingAdmissionPolicies update(List<MapValue> policies, List<MapValue> bindings) {
    requireNonNull(policies, "policies");
    requireNonNull(bindings, "bindings");
    Map<String, Policy> previous = new HashMap<>();
    this.policies.forEach(p -> previous.put(p.name(), p));
    List<Policy> compiled = new ArrayList<>(policies.size());
    for (MapValue p : policies) {
      Policy old = previous.get(Meta.metaString(p, "name"));
      compiled.add(old != null
          && old.spec().equals(CompiledValidatingPolicy.map(p.getOrNull("spec")))
          ? old : Policy.of(p));
    }
    compiled.sort(Comparator.comparing(Policy::name));
    Map<String, List<Binding>> byPolicy = new HashMap<>();
    List<MapValue> sorted = new ArrayList<>(bindings);
    sorted.sort(Comparator.comparing(b -> Meta.metaString(b, "name")));
    for (MapValue b : sorted) {
      Binding binding = Binding.of(b);
      byPolicy.computeIfAbsent(Meta.string(binding.spec(), "policyName"),
          k -> new ArrayList<>()).add(binding);
    }
    byPolicy.replaceAll((k, v) -> List.copyOf(v));
    return new MutatingAdmissionPolicies(List.copyOf(compiled), Map.copyOf(byPolicy));
  }

  /**
   * Whether there is no policy with a binding.
   *
   * @return true when the stage can be skipped
   */
  public boolean isEmpty() {
    return policies.isEmpty() || bindingsByPolicy.isEmpty();
  }

  /**
   * Mutates the object of a request that carries one (CREATE, UPDATE).
   *
   * @return the mutated object; {@code attributes.object()} itself when nothing changed
   * @throws StatusException kube's denial when a policy failed under failurePolicy Fail
   * @param attributes the request, with its object
   * @param context namespaces, parameters and the authorizer
   */
  public MapValue admit(AdmissionAttributes attributes, PolicyContext context) {
    requireNonNull(attributes, "attributes");
    requireNonNull(context, "context");
    MapValue object = attributes.object().orElseThrow(() -> new IllegalArgumentException(
        "admit: " + attributes + " carries no object"));
    if (isEmpty() || PolicyExemptions.exempt(attributes.resource().groupResource())) {
      return object;
    }
    Reinvocation reinvocation = attributes.context().reinvocation(PLUGIN);
    reinvocation.beginRound(Optional.of(object));
    List<String> errors = new ArrayList<>();
    AdmissionAttributes current = attributes;
    Value namespaceObject = null;
    CelAuthorizer.ForRequest authorizer = null;
    boolean applied = false;
    for (Policy policy : policies) {
      List<Binding> bindings = bindingsByPolicy.getOrDefault(policy.name(), List.of());
      if (bindings.isEmpty()) {
        continue;
      }
      Optional<Match> match;
      try {
        match = policy.matchConstraints().match(current, context.namespaces(),
            context.equivalents());
      } catch (StatusException e) {
        fail(policy, null, e.getMessage(), errors);
        continue;
      }
      if (match.isEmpty()) {
        continue;
      }
      for (Binding binding : bindings) {
        try {
          if (binding.matchResources().isPresent() && binding.matchResources().get()
              .match(current, context.namespaces(), context.equivalents()).isEmpty()) {
            continue;
          }
        } catch (StatusException e) {
          fail(policy, binding, e.getMessage(), errors);
          continue;
        }
        List<Value> params;
        try {
          params = Params.collect(policy.paramKind(), binding.spec(), current.namespace(),
              context);
        } catch (Params.ParamException e) {
          fail(policy, binding, "failed to configure binding: " + e.getMessage(), errors);
          continue;
        }
        if (namespaceObject == null) {
          String ns = PolicyInputs.isNamespace(current.kind()) ? "" : current.namespace();
          namespaceObject = ns.isEmpty() ? Value.nullValue()
              : context.namespaces().namespace(ns).map(PolicyInputs::namespaceObject)
                  .orElse(Value.nullValue());
        }
        if (authorizer == null) {
          authorizer = new CelAuthorizer.ForRequest(context.authorizer(attributes),
              attributes.resource().group(), attributes.resource().resource(),
              attributes.subresource(), attributes.namespace(), attributes.name());
        }
        for (Value param : params) {
          Invocation done = invoke(policy, binding, match.get(), current, param,
              namespaceObject, authorizer, context, errors, reinvocation);
          current = done.attributes();
          applied |= done.applied();
        }
      }
    }
    if (applied) {
      // kube marks the object dirty on every applied mutation, changed or not, and then asks
      // for the IfNeeded policies invoked since the last change to run again
      reinvocation.changed();
    }
    reinvocation.endRound(current.object());
    if (!errors.isEmpty()) {
      throw denial(attributes, errors);
    }
    return current.object().orElse(object);
  }

  /** The request after one invocation, and whether any of its mutations was applied. */
  private record Invocation(AdmissionAttributes attributes, boolean applied) {}

  /** kube's reinvocation key: the policy, the binding and the parameter object. */
  private static String key(Policy policy, Binding binding, Value param) {
    String p = param instanceof MapValue m
        ? Meta.metaString(m, "namespace") + "/" + Meta.metaString(m, "name") : "";
    return policy.name() + "\n" + binding.name() + "\n" + p;
  }

  /**
   * One policy with one binding and parameter: conditions, then (unless a second round leaves
   * it out) every mutation in order.
   */
  private static Invocation invoke(Policy policy, Binding binding, Match match,
      AdmissionAttributes a, Value param, Value namespaceObject,
      CelAuthorizer.ForRequest authorizer, PolicyContext context, List<String> errors,
      Reinvocation reinvocation) {
    Invocation unchanged = new Invocation(a, false);
    Value request = AdmissionRequests.celRequest(a, match);
    PolicyActivation conditions = PolicyActivation.of(a, request, param, namespaceObject,
        policy.variableNames(), policy.variables(), authorizer);
    boolean tracked = policy.costTracked();
    if (tracked) {
      conditions.track(CostLimits.MATCH_CONDITIONS_BUDGET);
    }
    List<String> conditionErrors = new ArrayList<>();
    for (PolicyExpression c : policy.matchConditions()) {
      PolicyExpression.Evaluation e = c.evaluate(conditions);
      if (e.failed()) {
        conditionErrors.add(e.error());
      } else if (e.isFalse()) {
        return unchanged;
      }
    }
    if (!conditionErrors.isEmpty()) {
      fail(policy, binding, conditionErrors.size() == 1 ? conditionErrors.get(0)
          : "[" + String.join(", ", conditionErrors) + "]", errors);
      return unchanged;
    }
    String key = key(policy, binding, param);
    if (reinvocation.skips(key)) {
      return unchanged;
    }
    AdmissionAttributes current = a;
    boolean applied = false;
    for (Mutation m : policy.mutations()) {
      MapValue object = current.object().orElseThrow();
      PolicyActivation activation = PolicyActivation.of(current, request, param,
          namespaceObject, policy.variableNames(), policy.variables(), authorizer);
      if (tracked) {
        // kube patches each mutation with a budget of its own
        activation.track(CostLimits.RUNTIME_BUDGET);
      }
      PolicyExpression.Evaluation e = m.expression().evaluate(activation);
      if (e.failed()) {
        fail(policy, binding, e.error(), errors);
        continue;
      }
      MapValue mutated;
      try {
        mutated = m.jsonPatch() ? jsonPatch(object, e.value())
            : applyConfiguration(context, match.kind(), object, e.value());
      } catch (IllegalArgumentException ex) {
        fail(policy, binding, ex.getMessage(), errors);
        continue;
      }
      applied = true;
      if (!mutated.equals(object)) {
        current = current.withObject(mutated);
      }
    }
    if (current != a && !current.object().equals(a.object())) {
      reinvocation.changed();
    }
    // after the change: a policy's own mutation does not make it run again
    if (policy.reinvokeIfNeeded()) {
      reinvocation.invokedReinvocable(key);
    }
    return new Invocation(current, applied);
  }

  private static MapValue jsonPatch(MapValue object, Value patch) {
    if (!(patch instanceof ListValue list)) {
      throw new IllegalArgumentException(
          "type mismatch: JSONPatchType.expression should evaluate to array");
    }
    for (Value op : list.items()) {
      if (!(op instanceof MapValue)) {
        throw new IllegalArgumentException("type mismatch: JSONPatchType.expression should"
            + " evaluate to array of JSONPatch");
      }
    }
    try {
      Value out = JsonPatch.apply(object, patch);
      if (!(out instanceof MapValue m)) {
        throw new IllegalArgumentException("JSON Patch: the patch replaced the object");
      }
      return m;
    } catch (StatusException ex) {
      throw new IllegalArgumentException("JSON Patch: " + ex.getMessage());
    }
  }

  private static MapValue applyConfiguration(PolicyContext context, GroupVersionKind kind,
      MapValue object, Value patch) {
    if (!(patch instanceof MapValue m)) {
      throw new IllegalArgumentException("unsupported return type from ApplyConfiguration"
          + " expression: " + patch.kind().name().toLowerCase());
    }
    return context.applyConfiguration(kind, object, m);
  }

  private static void fail(Policy policy, Binding binding, String message, List<String> errors) {
    if (!policy.failClosed()) {
      return;
    }
    errors.add(binding == null
        ? "policy \"" + policy.name() + "\" denied request: " + message
        : "policy '" + policy.name() + "' with binding '" + binding.name()
            + "' denied request: " + message);
  }

  /** kube's generic policy dispatcher: Forbidden's code, reason Invalid, every error a cause. */
  private static StatusException denial(AdmissionAttributes a, List<String> errors) {
    Status forbidden = AdmissionErrors.forbidden(a, "admission request denied by policy").status();
    StatusDetails details = forbidden.details().orElse(StatusDetails.of("", "", ""));
    List<StatusCause> causes = new ArrayList<>(details.causes());
    errors.forEach(e -> causes.add(new StatusCause("", e, "")));
    return new StatusException(new Status(Status.Outcome.FAILURE, forbidden.code(),
        StatusReason.INVALID, errors.get(0), Optional.of(details.withCauses(causes))));
  }
}
