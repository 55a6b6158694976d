/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@code ScopedResourceSelectorRequirement} of a quota: a scope name
 * ({@code Terminating}, {@code NotTerminating}, {@code BestEffort}, {@code NotBestEffort},
 * {@code PriorityClass}, {@code CrossNamespacePodAffinity}, {@code VolumeAttributesClass}), an
 * operator ({@code In}, {@code NotIn}, {@code Exists}, {@code DoesNotExist}) and its values.
 *
 * @param scopeName the scope
 * @param operator the operator
 * @param values the values of {@code In} and {@code NotIn}
 */
public record ScopeRequirement(String scopeName, String operator, List<String> values) {
  /** kube's {@code ScopeSelectorOpExists}. */
  public static final String EXISTS = "Exists";

  /**
   * Copies the values.
   *
   * @param scopeName see the record component
   * @param operator see the record component
   * @param values see the record component
   */
  public ScopeRequirement {
    requireNonNull(scopeName, "scopeName");
    requireNonNull(operator, "operator");
    values = List.copyOf(values);
  }

  /**
   * The quota's scopes as kube's {@code getScopeSelectorsFromQuota} gives them: each of
   * {@code spec.scopes} as an {@code Exists} requirement, then the match expressions of
   * {@code spec.scopeSelector}.
   *
   * @param quota a ResourceQuota
   * @return its requirements in that order
   */
  public static List<ScopeRequirement> ofQuota(MapValue quota) {
    List<ScopeRequirement> out = new ArrayList<>();
    for (Value s : Nested.list(quota, "spec", "scopes")) {
      out.add(new ScopeRequirement(Nested.str(s), EXISTS, List.of()));
    }
    out.addAll(ofList(Nested.list(quota, "spec", "scopeSelector", "matchExpressions")));
    return out;
  }

  /**
   * A list of {@code ScopedResourceSelectorRequirement}s as JSON has them.
   *
   * @param requirements the list's items
   * @return the requirements in that order
   */
  public static List<ScopeRequirement> ofList(List<Value> requirements) {
    List<ScopeRequirement> out = new ArrayList<>();
    for (Value e : requirements) {
      List<String> values = new ArrayList<>();
      Nested.list(e, "values").forEach(v -> values.add(Nested.str(v)));
      out.add(new ScopeRequirement(Nested.str(e, "scopeName"), Nested.str(e, "operator"),
          values));
    }
    return out;
  }

  /**
   * Go's {@code %v} of the requirement, as kube's quota messages print it:
   * {@code {PriorityClass In [cluster-services]}}.
   *
   * @return the text
   */
  public String goText() {
    return "{" + scopeName + " " + operator + " [" + String.join(" ", values) + "]}";
  }

  /**
   * Whether a label set with at most the one label {@code scopeName=value} (none when
   * {@code value} is empty) satisfies this requirement, as kube's
   * {@code ScopedResourceSelectorRequirementsAsSelector} selector does.
   *
   * @param value the object's value for the scope ("" for none)
   * @return whether it matches
   */
  public boolean selects(String value) {
    boolean has = !value.isEmpty();
    return switch (operator) {
      case "In" -> has && values.contains(value);
      case "NotIn" -> !has || !values.contains(value);
      case EXISTS -> has;
      case "DoesNotExist" -> !has;
      default -> false;
    };
  }
}
