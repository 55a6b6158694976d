/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.cel.CelException;
import io.apiserver4j.cel.CelObjectType;
import io.apiserver4j.cel.CelProgram;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Type checking of a ValidatingAdmissionPolicy's expressions against the kinds its
 * {@code matchConstraints} name, as kube's policy type checker reports it in
 * {@code status.typeChecking.expressionWarnings}: one warning per expression that does not
 * check for some kind, {@code fieldRef} {@code spec.validations[i].expression} (or
 * {@code .messageExpression}), the text one line group per kind
 * ({@code apps/v1, Kind=Deployment: compilation failed: ERROR: ...}).
 *
 * <p>Best effort: {@code object} and {@code oldObject} are checked for the fields they select
 * ({@code undefined field 'x'}); values are otherwise dynamic, so operator and overload
 * mismatches are not found before run time. Rules with wildcards are skipped, as kube does.
 * Thread-safe.
 */
public final class PolicyTypeChecker {
  private final Function<GroupVersionResource, Optional<GroupVersionKind>> kinds;
  private final Function<GroupVersionKind, Optional<CelObjectType>> types;

  /**
   * @param kinds the kind served for a resource (empty when none)
   * @param types the type of a kind's objects (empty when unknown: the kind is not checked)
   */
  public PolicyTypeChecker(Function<GroupVersionResource, Optional<GroupVersionKind>> kinds,
      Function<GroupVersionKind, Optional<CelObjectType>> types) {
    this.kinds = requireNonNull(kinds, "kinds");
    this.types = requireNonNull(types, "types");
  }

  /**
   * The {@code status.typeChecking} value of {@code policy}: {@code {expressionWarnings: [..]}}.
   *
   * @param policy the ValidatingAdmissionPolicy
   * @return the type-checking status
   */
  public MapValue typeChecking(MapValue policy) {
    requireNonNull(policy, "policy");
    MapValue spec = CompiledValidatingPolicy.map(policy.getOrNull("spec"));
    List<GroupVersionKind> gvks = new ArrayList<>();
    for (GroupVersionKind k : matchedKinds(spec)) {
      if (types.apply(k).isPresent()) {
        gvks.add(k);
      }
    }
    List<String> declared = PolicyActivation.declared(spec.getOrNull("paramKind")
        instanceof MapValue, true);
    ListValue.Builder warnings = ListValue.builder();
    List<MapValue> validations = CompiledValidatingPolicy.maps(spec.getOrNull("validations"));
    for (int i = 0; i < validations.size(); i++) {
      MapValue v = validations.get(i);
      for (String field : List.of("expression", "messageExpression")) {
        String expression = Meta.string(v, field);
        if (expression.isEmpty()) {
          continue;
        }
        StringBuilder text = new StringBuilder();
        for (GroupVersionKind k : gvks) {
          String issue = check(expression, declared, types.apply(k).orElseThrow());
          if (issue != null) {
            if (text.length() > 0) {
              text.append('\n');
            }
            text.append(k).append(": ").append(issue).append('\n');
          }
        }
        if (text.length() > 0) {
          warnings.add(MapValue.ofEntries(
              "fieldRef", Value.of("spec.validations[" + i + "]." + field),
              "warning", Value.of(text.toString())));
        }
      }
    }
    ListValue all = warnings.build();
    // expressionWarnings is omitempty: a clean policy's typeChecking is {}
    return all.isEmpty() ? MapValue.empty() : MapValue.ofEntries("expressionWarnings", all);
  }

  private static String check(String expression, List<String> declared, CelObjectType type) {
    try {
      CelProgram.compile(expression, declared, List.of(),
          java.util.Map.of("object", type, "oldObject", type));
      return null;
    } catch (CelException e) {
      return "compilation failed: " + e.getMessage();
    }
  }

  /** The kinds named by the policy's resource rules without wildcards, in rule order. */
  private List<GroupVersionKind> matchedKinds(MapValue spec) {
    Set<GroupVersionKind> out = new LinkedHashSet<>();
    MapValue constraints = CompiledValidatingPolicy.map(spec.getOrNull("matchConstraints"));
    for (MapValue rule : CompiledValidatingPolicy.maps(constraints.getOrNull("resourceRules"))) {
      for (String g : strings(rule.getOrNull("apiGroups"))) {
        for (String v : strings(rule.getOrNull("apiVersions"))) {
          for (String r : strings(rule.getOrNull("resources"))) {
            if (g.equals("*") || v.equals("*") || r.contains("*") || r.contains("/")) {
              continue;
            }
            kinds.apply(new GroupVersionResource(g, v, r)).ifPresent(out::add);
          }
        }
      }
    }
    return List.copyOf(out);
  }

  private static List<String> strings(Value v) {
    return io.apiserver4j.core.Meta.stringList(v);
  }

}
