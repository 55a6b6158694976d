/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.TestCertificates;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.storage.InMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RBAC, impersonation and the review resources through the real kubectl: what an operator
 * checks on its first day with a cluster that enforces RBAC. Expected texts are kube-apiserver's
 * ({@code responsewriters.ForbiddenStatusError}, the impersonation filter, kubectl's printing of
 * the reviews).
 */
class RbacKubectlTest {
  @TempDir
  static Path dir;
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl admin;
  static Kubectl bob;

  @BeforeAll
  static void start() throws Exception {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    api = Reviews.install(ApiServer.builder().store(store)
        .admission(AdmissionChain.builder().add(new RbacEscalationCheck(rbac)).build()), rbac)
        .build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
    // kubectl sends bearer tokens over TLS only
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    String ca = Files.readString(pki.caCert);
    http = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
        .authenticator(Authenticators.bearerTokens(Map.of(
            "admin-token", UserInfo.of("admin", "system:masters"),
            "bob-token", UserInfo.of("bob"))))
        .authorizer(rbac)
        .build();
    http.start();
    admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
        http.kubeconfig().certificateAuthority(ca).token("admin-token").build());
    bob = new Kubectl(Files.createDirectories(dir.resolve("bob")),
        http.kubeconfig().certificateAuthority(ca).token("bob-token").build());
    for (String ns : new String[] {"bind", "names", "rules", "agg", "esc"}) {
      admin.ok("create", "namespace", ns);
    }
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    rbac.close();
  }

  @Test
  void aRoleBindingGrantsWhatItsRoleAllowsInItsNamespace() {
    Kubectl.Result denied = bob.run("-n", "bind", "get", "configmaps");
    assertThat(denied.exitCode()).isNotZero();
    assertThat(denied.stderr()).contains("Error from server (Forbidden): configmaps is forbidden:"
        + " User \"bob\" cannot list resource \"configmaps\" in API group \"\" in the namespace"
        + " \"bind\"");

    admin.ok("-n", "bind", "create", "role", "cm-reader", "--verb=get,list",
        "--resource=configmaps");
    admin.ok("-n", "bind", "create", "rolebinding", "bob-reads", "--role=cm-reader",
        "--user=bob");

    assertThat(bob.run("-n", "bind", "get", "configmaps").exitCode()).isZero();
    assertThat(bob.run("-n", "default", "get", "configmaps").stderr())
        .contains("cannot list resource \"configmaps\" in API group \"\" in the namespace"
            + " \"default\"");
    assertThat(bob.run("-n", "bind", "auth", "can-i", "list", "configmaps").stdout().trim())
        .isEqualTo("yes");
    Kubectl.Result create = bob.run("-n", "bind", "auth", "can-i", "create", "configmaps");
    assertThat(create.stdout().trim()).isEqualTo("no");
    assertThat(create.exitCode()).isEqualTo(1);
  }

  @Test
  void resourceNamesAndSubresourcesAreRespected() {
    admin.ok("-n", "names", "create", "configmap", "shared", "--from-literal=a=1");
    admin.ok("-n", "names", "create", "configmap", "private", "--from-literal=a=1");
    admin.ok("-n", "names", "create", "role", "one-cm", "--verb=get",
        "--resource=configmaps", "--resource-name=shared");
    admin.ok("-n", "names", "create", "rolebinding", "bob-one-cm", "--role=one-cm",
        "--user=bob");
    admin.ok("-n", "names", "create", "role", "scaler", "--verb=get,update,patch",
        "--resource=deployments/scale");
    admin.ok("-n", "names", "create", "rolebinding", "bob-scales", "--role=scaler",
        "--user=bob");

    assertThat(bob.run("-n", "names", "get", "configmap", "shared").exitCode()).isZero();
    assertThat(bob.run("-n", "names", "get", "configmap", "private").stderr())
        .contains("configmaps \"private\" is forbidden: User \"bob\" cannot get resource"
            + " \"configmaps\" in API group \"\" in the namespace \"names\"");
    assertThat(bob.run("-n", "names", "auth", "can-i", "update", "deployments",
        "--subresource=scale").stdout().trim()).isEqualTo("yes");
    assertThat(bob.run("-n", "names", "auth", "can-i", "update", "deployments").stdout().trim())
        .isEqualTo("no");
  }

  @Test
  void impersonationIsAuthorizedWithTheImpersonateVerb() {
    assertThat(admin.ok("auth", "whoami", "--as=bob", "-o", "jsonpath={.status.userInfo}"))
        .isEqualTo("{\"groups\":[\"system:authenticated\"],\"username\":\"bob\"}");
    // 1.36 (ConstrainedImpersonation on) asks impersonate-on:user-info:<verb> first and reports
    // the first mode's refusal; the legacy text is ConstrainedImpersonationHttpTest's, gate off
    Kubectl.Result escalate = bob.run("get", "namespaces", "--as=admin");
    assertThat(escalate.stderr()).contains("Error from server (Forbidden): namespaces is"
        + " forbidden: User \"bob\" cannot impersonate-on:user-info:list resource"
        + " \"namespaces\" in API group \"\" at the cluster scope");
    assertThat(admin.ok("auth", "whoami", "--as=bob", "--as-group=devs", "-o",
        "jsonpath={.status.userInfo.groups}"))
        .isEqualTo("[\"devs\",\"system:authenticated\"]");
  }

  @Test
  void whoAmIAndTheRulesListShowTheCaller() {
    assertThat(bob.ok("auth", "whoami")).contains("Username").contains("bob")
        .contains("system:authenticated");
    admin.ok("-n", "rules", "create", "role", "secret-lister", "--verb=list",
        "--resource=secrets");
    admin.ok("-n", "rules", "create", "rolebinding", "bob-lists-secrets",
        "--role=secret-lister", "--user=bob");
    assertThat(bob.ok("-n", "rules", "auth", "can-i", "--list"))
        .containsPattern("secrets\\s+\\[\\]\\s+\\[\\]\\s+\\[list\\]")
        .containsPattern("selfsubjectaccessreviews.authorization.k8s.io\\s+\\[\\]\\s+\\[\\]"
            + "\\s+\\[create\\]");
  }

  @Test
  void aggregatedClusterRolesCollectTheRulesOfTheirLabelledRoles() {
    admin.ok("-n", "agg", "create", "rolebinding", "bob-views", "--clusterrole=view",
        "--user=bob");
    assertThat(bob.run("-n", "agg", "auth", "can-i", "list", "pods").stdout().trim())
        .isEqualTo("yes");
    assertThat(bob.run("-n", "agg", "auth", "can-i", "delete", "pods").stdout().trim())
        .isEqualTo("no");
    assertThat(bob.run("-n", "agg", "auth", "can-i", "list", "leases").stdout().trim())
        .isEqualTo("no");

    admin.file("leases-view.yaml", """
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
    admin.ok("apply", "-f", "leases-view.yaml");

    assertThat(admin.ok("get", "clusterrole", "view", "-o", "jsonpath={.rules[*].resources}"))
        .contains("leases");
    assertThat(bob.run("-n", "agg", "auth", "can-i", "list", "leases").stdout().trim())
        .isEqualTo("yes");
  }

  @Test
  void rolesAndBindingsCannotGrantWhatTheWriterDoesNotHold() {
    admin.ok("-n", "esc", "create", "rolebinding", "bob-admin", "--clusterrole=admin",
        "--user=bob");

    bob.ok("-n", "esc", "create", "role", "secret-reader", "--verb=get", "--resource=secrets");
    Kubectl.Result role = bob.run("-n", "esc", "create", "role", "node-maker", "--verb=create",
        "--resource=nodes");
    assertThat(role.stderr()).contains("roles.rbac.authorization.k8s.io \"node-maker\" is"
        + " forbidden: user \"bob\" (groups=[\"system:authenticated\"]) is attempting to grant"
        + " RBAC permissions not currently held:\n{APIGroups:[\"\"], Resources:[\"nodes\"],"
        + " Verbs:[\"create\"]}");
    Kubectl.Result binding = bob.run("-n", "esc", "create", "rolebinding", "bob-root",
        "--clusterrole=cluster-admin", "--user=bob");
    assertThat(binding.stderr()).contains("rolebindings.rbac.authorization.k8s.io \"bob-root\""
        + " is forbidden: user \"bob\" (groups=[\"system:authenticated\"]) is attempting to"
        + " grant RBAC permissions not currently held:\n{APIGroups:[\"*\"], Resources:[\"*\"],"
        + " Verbs:[\"*\"]}\n{NonResourceURLs:[\"*\"], Verbs:[\"*\"]}");

    admin.ok("create", "clusterrole", "node-escalator", "--verb=escalate,bind",
        "--resource=roles,clusterroles");
    admin.ok("-n", "esc", "create", "rolebinding", "bob-escalates",
        "--clusterrole=node-escalator", "--user=bob");
    bob.ok("-n", "esc", "create", "role", "node-maker", "--verb=create", "--resource=nodes");
  }

  @Test
  void bindOnAClusterRoleIsCheckedInTheBindingsNamespace() {
    // the delegation example of kube's RBAC documentation ("Restrictions on role binding
    // creation or update"): bind on chosen ClusterRoles, granted in one namespace only, is what
    // BindingAuthorized checks there (pkg/registry/rbac/validation)
    admin.ok("create", "namespace", "user-1-namespace");
    admin.ok("create", "namespace", "user-2-namespace");
    admin.ok("create", "clusterrole", "role-grantor", "--verb=bind", "--resource=clusterroles",
        "--resource-name=admin", "--resource-name=edit", "--resource-name=view");
    admin.ok("create", "clusterrole", "binding-writer", "--verb=create,get",
        "--resource=rolebindings");
    for (String ns : new String[] {"user-1-namespace", "user-2-namespace"}) {
      admin.ok("-n", ns, "create", "rolebinding", "bob-writes-bindings",
          "--clusterrole=binding-writer", "--user=bob");
    }
    admin.ok("-n", "user-1-namespace", "create", "rolebinding", "bob-grants",
        "--clusterrole=role-grantor", "--user=bob");

    bob.ok("-n", "user-1-namespace", "create", "rolebinding", "carol-views",
        "--clusterrole=view", "--user=carol");
    Kubectl.Result elsewhere = bob.run("-n", "user-2-namespace", "create", "rolebinding",
        "carol-views", "--clusterrole=view", "--user=carol");
    assertThat(elsewhere.stderr()).contains("rolebindings.rbac.authorization.k8s.io"
        + " \"carol-views\" is forbidden: user \"bob\" (groups=[\"system:authenticated\"]) is"
        + " attempting to grant RBAC permissions not currently held:");
    Kubectl.Result cluster = bob.run("create", "clusterrolebinding", "carol-views",
        "--clusterrole=view", "--user=carol");
    assertThat(cluster.exitCode()).isNotZero();
  }
}
