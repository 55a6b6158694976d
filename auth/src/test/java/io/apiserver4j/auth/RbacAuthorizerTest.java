/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.storage.InMemoryStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The RBAC authorizer on objects written through the server, read by the next decision. */
class RbacAuthorizerTest {
  InMemoryStore store;
  RbacAuthorizer rbac;
  ApiServer api;

  @BeforeEach
  void start() {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    // unit tests of the authorizer: roles in namespaces never created, no controller writes
    api = ApiServer.builder().store(store)
        .disableAdmissionPlugins("NamespaceLifecycle", "ServiceAccount").build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
  }

  @AfterEach
  void stop() {
    rbac.close();
    api.close();
  }

  private void apply(String plural, String namespace, String yaml) {
    var r = api.resources("rbac.authorization.k8s.io/v1", plural);
    (namespace.isEmpty() ? r : r.namespace(namespace)).apply("test", yaml);
  }

  private static AuthorizationAttributes resource(String user, String verb, String group,
      String resource, String namespace, String name) {
    return new AuthorizationAttributes(UserInfo.of(user, "system:authenticated"), verb, true,
        group, "v1", resource, "", namespace, name, "");
  }

  private boolean allowed(AuthorizationAttributes a) {
    return rbac.authorize(a) instanceof AuthorizationDecision.Allow;
  }

  @Test
  void decisionsWriteNothing() {
    // a server of its own, with the bootstrap policy but no aggregation controller
    InMemoryStore own = InMemoryStore.create();
    try (ApiServer server = ApiServer.builder().store(own)
        .disableAdmissionPlugins("ServiceAccount").build();
        RbacAuthorizer reader = RbacAuthorizer.over(own)) {
      Bootstrap.ensure(server);
      long before = own.currentRevision();
      // view aggregates the pod rules of system:aggregate-to-view for the decision ...
      assertThat(reader.roleRules("ClusterRole", "", "view")).isNotEmpty();
      reader.authorize(resource("bob", "list", "", "pods", "ns", ""));
      reader.rulesFor(UserInfo.of("bob"), "ns");
      // ... but only the controller writes them
      assertThat(own.currentRevision()).isEqualTo(before);
      assertThat(Nested.list(server.resources("rbac.authorization.k8s.io/v1", "clusterroles")
          .get("view"), "rules")).isEmpty();
    }
  }

  @Test
  void aggregationStartsOnce() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> rbac.aggregateInto(api))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("already started");
  }

  @Test
  void aggregatedRoleFollowsItsLabelledRoles() throws InterruptedException {
    apply("rolebindings", "ns", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: b, namespace: ns}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
        subjects: [{kind: User, name: bob, apiGroup: rbac.authorization.k8s.io}]
        """);
    assertThat(allowed(resource("bob", "list", "", "pods", "ns", ""))).isTrue();
    assertThat(allowed(resource("bob", "list", "coordination.k8s.io", "leases", "ns", "")))
        .isFalse();
    apply("clusterroles", "", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: ClusterRole
        metadata:
          name: leases-view
          labels: {rbac.authorization.k8s.io/aggregate-to-view: "true"}
        rules:
        - apiGroups: [coordination.k8s.io]
          resources: [leases]
          verbs: [get, list, watch]
        """);
    assertThat(allowed(resource("bob", "list", "coordination.k8s.io", "leases", "ns", "")))
        .isTrue();
    // the stored role follows in the background, as kube's aggregation controller writes it
    MapValue view = ClusterRoleWaits.await(api, "view",
        r -> Json.write(r.getOrNull("rules")).contains("leases"));
    assertThat(Nested.list(view, "metadata", "managedFields"))
        .anySatisfy(m -> assertThat(Json.write(m))
        .contains("\"manager\":\"" + ClusterRoleAggregation.FIELD_MANAGER + "\"")
        .contains("\"operation\":\"Apply\""));
  }
}
