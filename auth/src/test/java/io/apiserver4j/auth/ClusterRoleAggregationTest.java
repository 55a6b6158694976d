/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The cluster role aggregation controller, as kube-controller-manager's: it follows the
 * ClusterRoles and writes the aggregated rules; every wait is on a watch.
 */
class ClusterRoleAggregationTest {
  ApiServer api;
  ClusterRoleAggregation aggregation;
  ResourceClient clusterRoles;

  @BeforeEach
  void start() {
    api = ApiServer.builder().build();
    clusterRoles = api.resources("rbac.authorization.k8s.io/v1", "clusterroles");
    aggregation = ClusterRoleAggregation.start(api);
  }

  @AfterEach
  void stop() {
    aggregation.close();
    api.close();
  }

  private static String rules(MapValue role) {
    return Json.write(role.getOrNull("rules"));
  }

  @Test
  void writesTheUnionOfTheSelectedRolesAndFollowsTheirChanges() throws InterruptedException {
    clusterRoles.apply("test", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: monitoring}
        aggregationRule:
          clusterRoleSelectors:
          - matchLabels: {example.com/aggregate-to-monitoring: "true"}
        """);
    clusterRoles.apply("test", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: monitoring-pods
          labels: {example.com/aggregate-to-monitoring: "true"}
        rules:
        - {apiGroups: [""], resources: [pods], verbs: [get]}
        """);
    clusterRoles.apply("test", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: monitoring-endpoints
          labels: {example.com/aggregate-to-monitoring: "true"}
        rules:
        - {apiGroups: [""], resources: [endpoints], verbs: [get]}
        - {apiGroups: [""], resources: [pods], verbs: [get]}
        """);
    // sorted by name: monitoring-endpoints' rules first, the shared pods rule once
    ClusterRoleWaits.await(api, "monitoring", r -> rules(r).equals(
        "[{\"apiGroups\":[\"\"],\"resources\":[\"endpoints\"],\"verbs\":[\"get\"]},"
            + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\"]}]"));

    clusterRoles.delete("monitoring-endpoints");
    ClusterRoleWaits.await(api, "monitoring", r -> rules(r).equals(
        "[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\"]}]"));
  }

  @Test
  void restoresAggregatedRulesChangedByHand() throws InterruptedException {
    clusterRoles.apply("test", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: secrets-reader
          labels: {example.com/aggregate-to-readers: "true"}
        rules:
        - {apiGroups: [""], resources: [secrets], verbs: [get]}
        """);
    clusterRoles.apply("test", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata: {name: readers}
        aggregationRule:
          clusterRoleSelectors:
          - matchLabels: {example.com/aggregate-to-readers: "true"}
        """);
    ClusterRoleWaits.await(api, "readers", r -> rules(r).contains("secrets"));

    // as client-go's RetryOnConflict: the controller may still be writing "readers"
    for (int attempt = 0; ; attempt++) {
      try {
        clusterRoles.fieldManager("someone").update(clusterRoles.get("readers").with("rules",
            io.apiserver4j.core.ListValue.of(java.util.List.of())));
        break;
      } catch (io.apiserver4j.core.errors.ConflictException e) {
        if (attempt == 4) {
          throw e;
        }
      }
    }
    MapValue restored = ClusterRoleWaits.await(api, "readers", r -> rules(r).contains("secrets"));
    assertThat(rules(restored))
        .isEqualTo("[{\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"verbs\":[\"get\"]}]");
  }

  @Test
  void closeIsIdempotent() {
    aggregation.close();
    aggregation.close();
  }
}
