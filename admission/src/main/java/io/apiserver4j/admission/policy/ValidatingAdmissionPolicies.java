/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.matching.AdmissionRequests;
import io.apiserver4j.admission.matching.Match;
import io.apiserver4j.admission.matching.MatchCriteria;
import io.apiserver4j.cel.CelAuthorizer;
import io.apiserver4j.core.Json;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ValidatingAdmissionPolicies and ValidatingAdmissionPolicyBindings
 * (admissionregistration.k8s.io/v1) of one configuration snapshot, compiled, and their
 * evaluation of a request as kube-apiserver's {@code ValidatingAdmissionPolicy} plugin.
 *
 * <p>For each policy whose {@code matchConstraints} match, each of its bindings whose
 * {@code matchResources} match (all when unset) is evaluated with each parameter object its
 * {@code paramRef} selects: matchConditions, validations and auditAnnotations. A failed
 * validation is acted on as the binding's {@code validationActions} say: {@code Deny} fails
 * the request with kube's {@code ValidatingAdmissionPolicy 'p' with binding 'b' denied request:
 * <message>} (reason and code from the validation's {@code reason}, Invalid 422 by default);
 * {@code Warn} adds the warning {@code Validation failed for ValidatingAdmissionPolicy 'p' with
 * binding 'b': <message>}; {@code Audit} adds the
 * {@code validation.policy.admission.k8s.io/validation_failure} audit annotation. Errors
 * (expressions that fail or do not compile, missing parameters) deny unless the policy's
 * {@code failurePolicy} is {@code Ignore}.
 *
 * <p>Requests for the policy and binding resources themselves are never evaluated, as in kube.
 *
 * <p>Expressions are compiled when the snapshot is built; {@link #update} reuses the compiled
 * form of every policy whose spec did not change. Immutable and thread-safe.
 */
public final class ValidatingAdmissionPolicies {
  private static final ValidatingAdmissionPolicies EMPTY =
      new ValidatingAdmissionPolicies(List.of(), Map.of());
  /** kube's {@code maxAuditAnnotationValueLength}. */
  private static final int MAX_AUDIT_VALUE = 10 * 1024;
  private static final String VALIDATION_FAILURE =
      "validation.policy.admission.k8s.io/validation_failure";

  private final List<CompiledValidatingPolicy> policies;
  private final Map<String, List<Binding>> bindingsByPolicy;

  /** A binding with its matchResources parsed once. */
  private record Binding(String name, MapValue spec, Optional<MatchCriteria> matchResources,
      List<String> actions) {
    static Binding of(MapValue binding) {
      MapValue spec = CompiledValidatingPolicy.map(binding.getOrNull("spec"));
      return new Binding(Meta.metaString(binding, "name"), spec,
          spec.getOrNull("matchResources") instanceof MapValue mr
              ? Optional.of(MatchCriteria.forPolicy(mr)) : Optional.empty(),
          Meta.stringList(spec.getOrNull("validationActions")));
    }
  }

  private ValidatingAdmissionPolicies(List<CompiledValidatingPolicy> policies,
      Map<String, List<Binding>> bindingsByPolicy) {
    this.policies = policies;
    this.bindingsByPolicy = bindingsByPolicy;
  }

  /**
   * No policies: admits everything.
   *
   * @return the empty set of policies
   */
  public static ValidatingAdmissionPolicies empty() {
    return EMPTY;
  }

  /**
   * Compiles the policies and indexes the bindings of a snapshot.
   *
   * @param policies the ValidatingAdmissionPolicy objects
   * @param bindings the ValidatingAdmissionPolicyBinding objects
   * @return the compiled policies
   */
  public static ValidatingAdmissionPolicies of(List<MapValue> policies,
      List<MapValue> bindings) {
    return EMPTY.update(policies, bindings);
  }

  /**
   * The policies of a newer snapshot, reusing this instance's compiled form of every policy
   * whose name and spec are unchanged.
   *
   * @param policies the ValidatingAdmissionPolicy objects
   * @param bindings the ValidatingAdmissionPolicyBinding objects
   * @return the compiled policies
   */
  public ValidatingAdmissionPolicies update(List<MapValue> policies, List<MapValue> bindings) {
    requireNonNull(policies, "policies");
    requireNonNull(bindings, "bindings");
    Map<String, CompiledValidatingPolicy> previous = new HashMap<>();
    this.policies.forEach(p -> previous.put(p.name(), p));
    List<CompiledValidatingPolicy> compiled = new ArrayList<>(policies.size());
    for (MapValue p : policies) {
      CompiledValidatingPolicy old = previous.get(Meta.metaString(p, "name"));
      compiled.add(old != null && old.spec().equals(CompiledValidatingPolicy.map(
          p.getOrNull("spec"))) ? old : new CompiledValidatingPolicy(p));
    }
    compiled.sort(Comparator.comparing(CompiledValidatingPolicy::name));
    Map<String, List<Binding>> byPolicy = new HashMap<>();
    List<MapValue> sorted = new ArrayList<>(bindings);
    sorted.sort(Comparator.comparing(b -> Meta.metaString(b, "name")));
    for (MapValue b : sorted) {
      Binding binding = Binding.of(b);
      String policyName = Meta.string(binding.spec(), "policyName");
      byPolicy.computeIfAbsent(policyName, k -> new ArrayList<>()).add(binding);
    }
    byPolicy.replaceAll((k, v) -> List.copyOf(v));
    return new ValidatingAdmissionPolicies(List.copyOf(compiled), Map.copyOf(byPolicy));
  }

  /**
   * Whether there is no policy with a binding (the request path can skip the stage).
   *
   * @return true when no policy applies
   */
  public boolean isEmpty() {
    return bindingsByPolicy.isEmpty() || policies.isEmpty();
  }

  /**
   * Validates a request: the request's final object (after mutating admission), old object,
   * user and dry-run flag are what expressions see.
   *
   * @return the warnings and audit annotations of an admitted request
   * @throws StatusException the first denial, with kube's message, reason and code
   * @param attributes the request with its final object
   * @param context namespaces, parameters and the authorizer
   */
  public PolicyOutcome validate(AdmissionAttributes attributes, PolicyContext context) {
    requireNonNull(attributes, "attributes");
    requireNonNull(context, "context");
    if (isEmpty() || PolicyExemptions.exempt(attributes.resource().groupResource())) {
      return PolicyOutcome.empty();
    }
    Dispatch d = new Dispatch(attributes, context);
    for (CompiledValidatingPolicy policy : policies) {
      List<Binding> bindings = bindingsByPolicy.getOrDefault(policy.name(), List.of());
      if (bindings.isEmpty()) {
        continue;
      }
      d.policy(policy, bindings);
    }
    if (d.denied != null) {
      throw d.denied;
    }
    return new PolicyOutcome(d.warnings, d.annotations);
  }

  /** The state of one request's evaluation (kube's {@code dispatcher.Dispatch}). */
  private static final class Dispatch {
    private final AdmissionAttributes a;
    private final PolicyContext context;
    private final List<String> warnings = new ArrayList<>();
    private long objectsExtent = -1;
    private final Map<String, String> annotations = new LinkedHashMap<>();
    private StatusException denied;
    private Match requestMatch;
    private Value request;
    private Value namespaceObject;
    private CelAuthorizer.ForRequest authorizer;

    Dispatch(AdmissionAttributes a, PolicyContext context) {
      this.a = a;
      this.context = context;
    }

    void policy(CompiledValidatingPolicy policy, List<Binding> bindings) {
      Optional<Match> match;
      try {
        match = policy.matchConstraints().match(a, context.namespaces(), context.equivalents());
      } catch (StatusException e) {
        configError(policy, null, e.getMessage());
        return;
      }
      if (match.isEmpty()) {
        return;
      }
      Map<String, List<String>> collected = new LinkedHashMap<>();
      for (Binding binding : bindings) {
        binding(policy, match.get(), binding, collected);
      }
      collected.forEach((key, values) ->
          annotations.putIfAbsent(policy.name() + "/" + key, String.join(", ", values)));
    }

    private void binding(CompiledValidatingPolicy policy, Match match, Binding binding,
        Map<String, List<String>> collected) {
      if (binding.matchResources().isPresent()) {
        try {
          if (binding.matchResources().get()
              .match(a, context.namespaces(), context.equivalents()).isEmpty()) {
            return;
          }
        } catch (StatusException e) {
          configError(policy, binding, e.getMessage());
          return;
        }
      }
      List<Value> params;
      try {
        params = Params.collect(policy.paramKind(), binding.spec(), a.namespace(), context);
      } catch (Params.ParamException e) {
        configError(policy, binding, e.getMessage());
        return;
      }
      String bindingName = binding.name();
      List<String> actions = binding.actions();
      for (Value param : params) {
        CompiledValidatingPolicy.Result result =
            policy.validate(a, policy.readsRequest() ? request(match) : Value.nullValue(), param,
                policy.readsNamespace() ? namespaceObject() : Value.nullValue(), authorizer(),
                this::objectsExtent);
        for (int i = 0; i < result.decisions().size(); i++) {
          CompiledValidatingPolicy.Decision decision = result.decisions().get(i);
          if (!decision.deny()) {
            continue;
          }
          for (String action : actions) {
            switch (action) {
              case "Deny" -> deny(policy.name(), bindingName, decision.message(),
                  decision.reason());
              case "Warn" -> warnings.add("Validation failed for ValidatingAdmissionPolicy '"
                  + policy.name() + "' with binding '" + bindingName + "': "
                  + decision.message());
              case "Audit" -> annotations.putIfAbsent(VALIDATION_FAILURE,
                  validationFailure(policy.name(), bindingName, i, decision.message(),
                      actions));
              default -> { }
            }
          }
        }
        for (CompiledValidatingPolicy.AnnotationResult an : result.annotations()) {
          if (an.error() != null) {
            deny(policy.name(), bindingName, an.error(), null);
            continue;
          }
          String value = an.value().length() > MAX_AUDIT_VALUE
              ? an.value().substring(0, MAX_AUDIT_VALUE) : an.value();
          List<String> values = collected.computeIfAbsent(an.key(), k -> new ArrayList<>());
          if (!values.contains(value)) {
            values.add(value);
          }
        }
      }
    }

    /** The extent of the object and old object, shared by every policy of the request. */
    private long objectsExtent() {
      if (objectsExtent < 0) {
        objectsExtent = CostLimits.extent(a.object().orElse(null), a.oldObject().orElse(null));
      }
      return objectsExtent;
    }

    private CelAuthorizer.ForRequest authorizer() {
      if (authorizer == null) {
        authorizer = new CelAuthorizer.ForRequest(context.authorizer(a),
            a.resource().group(), a.resource().resource(), a.subresource(), a.namespace(),
            a.name());
      }
      return authorizer;
    }

    /** The {@code request} variable; kube builds it with the resource the policy matched. */
    private Value request(Match match) {
      if (request == null || !match.equals(requestMatch)) {
        request = AdmissionRequests.celRequest(a, match);
        requestMatch = match;
      }
      return request;
    }

    private Value namespaceObject() {
      if (namespaceObject == null) {
        String ns = PolicyInputs.isNamespace(a.kind()) ? "" : a.namespace();
        namespaceObject = ns.isEmpty() ? Value.nullValue()
            : context.namespaces().namespace(ns).map(PolicyInputs::namespaceObject)
                .orElse(Value.nullValue());
      }
      return namespaceObject;
    }

    private void configError(CompiledValidatingPolicy policy, Binding binding, String error) {
      if (!policy.failClosed()) {
        return;
      }
      deny(policy.name(), binding == null ? null : binding.name(),
          (binding == null ? "failed to configure policy: " : "failed to configure binding: ")
              + error, null);
    }

    /** Keeps the first denial, built as kube's dispatcher builds it. */
    private void deny(String policy, String binding, String message, StatusReason reason) {
      if (denied != null) {
        return;
      }
      String text = binding == null
          ? "ValidatingAdmissionPolicy '" + policy + "' denied request: " + message
          : "ValidatingAdmissionPolicy '" + policy + "' with binding '" + binding
              + "' denied request: " + message;
      Status forbidden = AdmissionErrors.forbidden(a, text).status();
      StatusReason r = reason == null ? StatusReason.INVALID : reason;
      StatusDetails details = forbidden.details().orElse(StatusDetails.of("", "", ""));
      List<StatusCause> causes = new ArrayList<>(details.causes());
      causes.add(new StatusCause("", text, ""));
      denied = StatusException.of(new Status(Status.Outcome.FAILURE, code(r), r,
          forbidden.message(), Optional.of(details.withCauses(causes))));
    }

    private static int code(StatusReason r) {
      return switch (r) {
        case FORBIDDEN, UNAUTHORIZED, REQUEST_ENTITY_TOO_LARGE -> r.code();
        default -> 422;
      };
    }

    private static String validationFailure(String policy, String binding, int index,
        String message, List<String> actions) {
      ListValue.Builder acts = ListValue.builder(actions.size());
      actions.forEach(x -> acts.add(Value.of(x)));
      MapValue entry = MapValue.ofEntries("message", Value.of(message),
          "policy", Value.of(policy), "binding", Value.of(binding),
          "expressionIndex", Value.of((long) index), "validationActions", acts.build());
      return Json.write(Value.list(entry));
    }
  }
}
