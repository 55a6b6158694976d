/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Yaml;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules of an aggregated ClusterRole, in kube's clusterrole-aggregation order. */
class AggregatedRulesTest {
  private static MapValue role(String yaml) {
    return (MapValue) Yaml.read(yaml);
  }

  private static final MapValue AGGREGATED = role("""
      metadata: {name: agg}
      aggregationRule:
        clusterRoleSelectors:
        - matchLabels: {second: "true"}
        - matchExpressions: [{key: first, operator: Exists}]
      rules: [{verbs: [stale]}]
      """);

  @Test
  void selectorBySelectorEachSortedByNameEachRuleOnce() {
    List<MapValue> roles = List.of(AGGREGATED,
        role("""
            metadata: {name: b, labels: {first: x}}
            rules: [{verbs: [get]}, {verbs: [list]}]
            """),
        role("""
            metadata: {name: a, labels: {first: x}}
            rules: [{verbs: [list]}, {verbs: [watch]}]
            """),
        role("""
            metadata: {name: z, labels: {second: "true"}}
            rules: [{verbs: [delete]}, {verbs: [get]}]
            """),
        role("""
            metadata: {name: unselected, labels: {other: "true"}}
            rules: [{verbs: [create]}]
            """));
    ListValue rules = AggregatedRules.of(AGGREGATED, roles);
    // z (second selector) first, although it sorts last by name; then a, b; get only once
    assertThat(Json.write(rules)).isEqualTo("[{\"verbs\":[\"delete\"]},{\"verbs\":[\"get\"]},"
        + "{\"verbs\":[\"list\"]},{\"verbs\":[\"watch\"]}]");
    assertThat(AggregatedRules.has(AGGREGATED, rules)).isFalse();
    assertThat(AggregatedRules.has(AGGREGATED.with("rules", rules), rules)).isTrue();
  }

  @Test
  void theRoleItselfIsNotAggregatedAndNoRulesEqualsEmptyRules() {
    MapValue self = role("""
        metadata: {name: self, labels: {first: x}}
        aggregationRule:
          clusterRoleSelectors: [{matchLabels: {first: x}}]
        """);
    ListValue rules = AggregatedRules.of(self, List.of(self));
    assertThat(rules.isEmpty()).isTrue();
    assertThat(AggregatedRules.isAggregated(self)).isTrue();
    // kube's semantic equality: a missing rule list is an empty one, so nothing is written
    assertThat(AggregatedRules.has(self, rules)).isTrue();
  }
}
