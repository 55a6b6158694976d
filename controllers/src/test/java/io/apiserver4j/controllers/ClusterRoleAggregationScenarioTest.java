/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kube-controller-manager's clusterrole-aggregation controller (the RBAC authorizer's
 * implementation, one of the server's own controllers) run by the manager in its place: the
 * aggregated rules are written, as kube's controller writes them (field manager
 * {@code clusterrole-aggregation-controller}, its service account, which kube's bootstrap policy
 * lets escalate ClusterRoles), by the time the manager is idle.
 */
class ClusterRoleAggregationScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private RbacAuthorizer rbac;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    Store store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    // as the server jar: RBAC's escalation check refuses rules its writer does not hold
    api = ApiServer.builder().bootstrap(false).clock(clock).store(store)
        .admission(namespaces -> AdmissionChain.builder().add(new RbacEscalationCheck(rbac))
            .build())
        .build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
    rbac.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private ResourceClient clusterRoles() {
    // an administrator: RBAC's escalation check lets system:masters write any rule
    return api.resources("rbac.authorization.k8s.io/v1", "clusterroles")
        .user(UserInfo.of("admin", "system:masters"));
  }

  @Test
  void theManagerTakesTheServersControllerOverAndIsIdleOnceTheRulesAreWritten() {
    assertThat(api.builtinControllers()).contains("clusterrole-aggregation");
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("clusterrole-aggregation").start();
    assertThat(controllers.controllers()).containsExactly("clusterrole-aggregation-controller");
    clusterRoles().create(Json.read("""
        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
         "metadata":{"name":"monitoring"},
         "aggregationRule":{"clusterRoleSelectors":[
           {"matchLabels":{"example.com/aggregate-to-monitoring":"true"}}]}}"""));
    clusterRoles().create(Json.read("""
        {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole",
         "metadata":{"name":"monitoring-pods",
           "labels":{"example.com/aggregate-to-monitoring":"true"}},
         "rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}"""));
    idle();
    MapValue role = clusterRoles().get("monitoring");
    assertThat(Json.write(role.getOrNull("rules")))
        .isEqualTo("[{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"get\"]}]");
    List<String> managers = Nested.list(role, "metadata", "managedFields").stream()
        .map(e -> Nested.str(e, "manager")).toList();
    assertThat(managers).contains("clusterrole-aggregation-controller");
    // the bootstrap roles aggregated too: admin holds what system:aggregate-to-admin grants
    assertThat(Nested.list(clusterRoles().get("admin"), "rules")).isNotEmpty();
  }

  @Test
  void kubesControllerRoleLetsItsServiceAccountEscalateClusterRoles() {
    MapValue role = clusterRoles().get("system:controller:clusterrole-aggregation-controller");
    assertThat(Json.write(role.getOrNull("rules"))).isEqualTo("[{\"apiGroups\":"
        + "[\"rbac.authorization.k8s.io\"],\"resources\":[\"clusterroles\"],\"verbs\":"
        + "[\"escalate\",\"get\",\"list\",\"watch\",\"update\",\"patch\"]}]");
    MapValue binding = api.resources("rbac.authorization.k8s.io/v1", "clusterrolebindings")
        .get("system:controller:clusterrole-aggregation-controller");
    assertThat(Json.write(binding.getOrNull("subjects"))).isEqualTo("[{\"kind\":"
        + "\"ServiceAccount\",\"name\":\"clusterrole-aggregation-controller\","
        + "\"namespace\":\"kube-system\"}]");
  }
}
