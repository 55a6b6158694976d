/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * kube's {@code quota.Evaluator}: how one resource consumes quota. Implementations are immutable
 * and thread-safe; {@link QuotaEvaluators} makes them.
 */
public interface QuotaEvaluator {

  /** {@return the resource this evaluator measures} */
  GroupResource groupResource();

  /**
   * Whether admission of this operation can change usage (kube's {@code Handles}).
   *
   * @param operation the request's operation
   * @param subresource the request's subresource ("" for the main resource)
   * @return whether to evaluate it
   */
  boolean handles(Operation operation, String subresource);

  /**
   * The resource names of {@code input} this evaluator tracks (kube's
   * {@code MatchingResources}).
   *
   * @param input quota resource names
   * @return those it tracks, in input order
   */
  List<String> matchingResources(Collection<String> input);

  /**
   * Whether {@code object} is in the scope {@code requirement} names (kube's
   * {@code MatchesScopeFunc}); resources without scopes match none.
   *
   * @param requirement the scope requirement
   * @param object the object
   * @return whether it matches
   */
  boolean matchesScope(ScopeRequirement requirement, MapValue object);

  /**
   * What {@code object} consumes (kube's {@code Usage}).
   *
   * @param object the object
   * @return its usage by resource name
   */
  SortedMap<String, Quantity> usage(MapValue object);

  /**
   * Checks that {@code object} states what the quota's {@code required} resources need (kube's
   * {@code Constraints}).
   *
   * @param required the quota's resources this evaluator tracks
   * @param object the object
   * @return kube's error text when a constraint fails, e.g.
   *     {@code must specify limits.cpu for: c}
   */
  default Optional<String> constraints(Collection<String> required, MapValue object) {
    return Optional.empty();
  }

  /**
   * kube's {@code generic.Matches}: the quota's {@code status.hard} names a resource this
   * evaluator tracks and the object is in every scope of the quota.
   *
   * @param quota a ResourceQuota
   * @param object the object
   * @return whether the quota applies to the object
   */
  default boolean matches(MapValue quota, MapValue object) {
    Map<String, Quantity> hard = ResourceLists.fromValue(
        io.apiserver4j.core.Nested.getOrNull(quota, "status", "hard"));
    if (matchingResources(hard.keySet()).isEmpty()) {
      return false;
    }
    for (ScopeRequirement s : ScopeRequirement.ofQuota(quota)) {
      if (!matchesScope(s, object)) {
        return false;
      }
    }
    return true;
  }

  /**
   * kube's {@code MatchingScopes}: the requirements {@code object} satisfies.
   *
   * @param object the object
   * @param requirements the requirements
   * @return those it satisfies, in order
   */
  default List<ScopeRequirement> matchingScopes(MapValue object,
      List<ScopeRequirement> requirements) {
    List<ScopeRequirement> out = new ArrayList<>();
    for (ScopeRequirement r : requirements) {
      if (matchesScope(r, object)) {
        out.add(r);
      }
    }
    return out;
  }

  /**
   * kube's {@code UncoveredQuotaScopes}: those of {@code limited} (scopes the admission
   * configuration limits, which the object is in) that no scope of a quota matching the object
   * names. Evaluators without scopes match none, so have none uncovered.
   *
   * @param limited the limited scopes the object matches
   * @param matchedQuotaScopes the scopes of the namespace's quotas the object matches
   * @return the uncovered ones, in order
   */
  default List<ScopeRequirement> uncoveredQuotaScopes(List<ScopeRequirement> limited,
      List<ScopeRequirement> matchedQuotaScopes) {
    List<ScopeRequirement> out = new ArrayList<>();
    for (ScopeRequirement l : limited) {
      if (matchedQuotaScopes.stream().noneMatch(m -> m.scopeName().equals(l.scopeName()))) {
        out.add(l);
      }
    }
    return out;
  }
}
