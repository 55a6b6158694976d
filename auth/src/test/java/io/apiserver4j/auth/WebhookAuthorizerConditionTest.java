/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.TestCertificates;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.http.WebhookServer;
import io.apiserver4j.storage.InMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code authorizer} in a webhook's {@code matchConditions}, as kube declares it for webhook
 * conditions: the check is asked of RBAC as the requesting user, so the same request reaches
 * the webhook for one user and not for another. A real HTTPS webhook; requests through kubectl
 * with bearer tokens; the denial text is kube's {@code ToStatusErr}.
 */
class WebhookAuthorizerConditionTest {
  @TempDir
  static Path dir;
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static WebhookServer webhooks;
  static Kubectl alice;
  static Kubectl bob;

  @BeforeAll
  static void start() throws Exception {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    api = ApiServer.builder().store(store).build();
    Bootstrap.ensure(api);
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    webhooks = new WebhookServer(pki);
    String ca = Files.readString(pki.caCert);
    http = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
        .authenticator(Authenticators.bearerTokens(Map.of(
            "alice-token", UserInfo.of("alice"), "bob-token", UserInfo.of("bob"))))
        .authorizer(rbac)
        .build();
    http.start();
    alice = new Kubectl(Files.createDirectories(dir.resolve("alice")),
        http.kubeconfig().certificateAuthority(ca).token("alice-token").build());
    bob = new Kubectl(Files.createDirectories(dir.resolve("bob")),
        http.kubeconfig().certificateAuthority(ca).token("bob-token").build());
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    rbac.close();
    webhooks.close();
  }

  private static void create(String resource, String yaml) {
    String apiVersion = Yaml.read(yaml) instanceof MapValue m
        ? Meta.string(m, "apiVersion") : "";
    api.resources(apiVersion, resource).namespace("team").create(Yaml.read(yaml));
  }

  @Test
  void aConditionAskingRbacSendsOnlyTheRequestsOfAllowedUsers() {
    api.resources("v1", "namespaces").create(Yaml.read(
        "{apiVersion: v1, kind: Namespace, metadata: {name: team}}"));
    // both may create configmaps; only alice may create pods
    create("roles", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata: {name: configmaps, namespace: team}
        rules: [{apiGroups: [""], resources: [configmaps], verbs: [create]}]
        """);
    create("roles", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata: {name: pods, namespace: team}
        rules: [{apiGroups: [""], resources: [pods], verbs: [create]}]
        """);
    create("rolebindings", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: configmaps, namespace: team}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: configmaps}
        subjects:
        - {apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}
        - {apiGroup: rbac.authorization.k8s.io, kind: User, name: bob}
        """);
    create("rolebindings", """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata: {name: pods, namespace: team}
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pods}
        subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]
        """);
    webhooks.handle("/deny", review -> WebhookServer.respond(review,
        "{\"allowed\":false,\"status\":{\"message\":\"pod creators are checked here\"}}"));
    api.resources("admissionregistration.k8s.io/v1", "validatingwebhookconfigurations")
        .create(Yaml.read("""
            apiVersion: admissionregistration.k8s.io/v1
            kind: ValidatingWebhookConfiguration
            metadata: {name: pod-creators.example.com}
            webhooks:
            - name: pod-creators.example.com
              clientConfig: {url: "%s", caBundle: %s}
              rules:
              - {operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}
              sideEffects: None
              admissionReviewVersions: [v1]
              matchConditions:
              - name: may-create-pods
                expression: >-
                  authorizer.group('').resource('pods').namespace(request.namespace)
                  .check('create').allowed()
            """.formatted(webhooks.url("/deny"), webhooks.caBundle())));

    assertThat(bob.ok("-n", "team", "create", "configmap", "from-bob", "--from-literal=a=1"))
        .contains("configmap/from-bob created");
    assertThat(webhooks.received("/deny")).isEmpty();

    Kubectl.Result denied = alice.run("-n", "team", "create", "configmap", "from-alice",
        "--from-literal=a=1");
    assertThat(denied.exitCode()).isNotZero();
    assertThat(denied.stderr()).contains("admission webhook \"pod-creators.example.com\""
        + " denied the request: pod creators are checked here");
    assertThat(webhooks.received("/deny")).hasSize(1);
    assertThat(Nested.str(webhooks.received("/deny").get(0),
        "request", "userInfo", "username")).isEqualTo("alice");
  }
}
