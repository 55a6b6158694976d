/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of an aggregated ClusterRole, computed as kube-controller-manager's
 * {@code clusterrole-aggregation} controller does ({@code syncClusterRole}): for each of the
 * role's {@code aggregationRule.clusterRoleSelectors} in order, the ClusterRoles it selects
 * (the role itself excluded) sorted by name, and each of their rules not yet taken.
 */
public final class AggregatedRules {
  private static final Comparator<MapValue> BY_NAME =
      Comparator.comparing(r -> Meta.metaString(r, "name"));

  private AggregatedRules() {}

  /** Whether {@code role} is an aggregated ClusterRole (it has an {@code aggregationRule}). */
  public static boolean isAggregated(MapValue role) {
    return Nested.getOrNull(role, "aggregationRule") instanceof MapValue;
  }

  /** The union of the rules of the cluster roles that {@code role}'s selectors select. */
  public static ListValue of(MapValue role, Collection<MapValue> clusterRoles) {
    String self = Meta.metaString(role, "name");
    List<MapValue> sorted = new ArrayList<>(clusterRoles);
    sorted.sort(BY_NAME);
    // kube keeps the first of equal rules, in the order met
    Set<Value> rules = new LinkedHashSet<>();
    for (Value sel : Nested.list(role, "aggregationRule", "clusterRoleSelectors")) {
      LabelSelector selector = Selectors.parse(sel);
      for (MapValue other : sorted) {
        if (Meta.metaString(other, "name").equals(self)) {
          continue;
        }
        Map<String, String> labels = Meta.labels(other);
        if (selector.matches(labels)) {
          rules.addAll(Nested.list(other, "rules"));
        }
      }
    }
    return ListValue.of(List.copyOf(rules));
  }

  /**
   * Whether {@code role} already has {@code rules}: as kube's semantic equality, a missing rule
   * list equals an empty one.
   */
  public static boolean has(MapValue role, ListValue rules) {
    return rules.equals(Nested.getOrNull(role, "rules"))
        || (rules.isEmpty() && Nested.list(role, "rules").isEmpty());
  }
}
