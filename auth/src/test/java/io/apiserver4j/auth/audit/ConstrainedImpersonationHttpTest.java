/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.auth.Reviews;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.core.Json;
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
 * Constrained impersonation (KEP-5284, gate {@code ConstrainedImpersonation}, on by default in
 * 1.36) through the real kubectl and RBAC: carol holds only {@code impersonate:user-info} on
 * users and {@code impersonate-on:user-info:<verb>} for a few verbs, never the legacy
 * {@code impersonate}. Expected texts are kube-apiserver's (the constrained impersonation
 * filter's checks in kube's order, {@code responsewriters.ForbiddenStatusError}); the audit
 * event carries kube's {@code authenticationMetadata.impersonationConstraint}. With the gate
 * off, the same grants do nothing and legacy impersonation answers.
 */
class ConstrainedImpersonationHttpTest {
  private static final String ROLE = """
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRole
      metadata:
        name: constrained-impersonator
      rules:
      - apiGroups: [authentication.k8s.io]
        resources: [users]
        verbs: ["impersonate:user-info"]
      - apiGroups: [""]
        resources: [pods]
        verbs: ["impersonate-on:user-info:list", "impersonate-on:user-info:get"]
      - apiGroups: [authorization.k8s.io]
        resources: [selfsubjectaccessreviews]
        verbs: ["impersonate-on:user-info:create"]
      - nonResourceURLs: ["/api", "/api/*", "/apis", "/apis/*"]
        verbs: ["impersonate-on:user-info:get"]
      """;

  @TempDir
  static Path dir;
  static RecordingSink events = new RecordingSink();
  static Server on;
  static Server off;

  /** A server with RBAC, audit at Metadata level, and tokens for admin and carol. */
  record Server(InMemoryStore store, RbacAuthorizer rbac, ApiServer api, HttpApiServer http,
      Kubectl admin, Kubectl carol) implements AutoCloseable {
    static Server start(Path dir, String featureGates) throws Exception {
      InMemoryStore store = InMemoryStore.create();
      RbacAuthorizer rbac = RbacAuthorizer.over(store);
      ApiServer.Builder builder = ApiServer.builder().store(store)
          .admission(AdmissionChain.builder().add(new RbacEscalationCheck(rbac)).build());
      if (!featureGates.isEmpty()) {
        builder.featureGates(featureGates);
      }
      ApiServer api = Reviews.install(builder, rbac).build();
      rbac.aggregateInto(api);
      Bootstrap.ensure(api);
      // kubectl sends bearer tokens over TLS only
      TestCertificates pki = TestCertificates.create(Files.createDirectories(
          dir.resolve("pki")));
      String ca = Files.readString(pki.caCert);
      HttpApiServer http = HttpApiServer.builder(api)
          .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
          .authenticator(Authenticators.bearerTokens(Map.of(
              "admin-token", UserInfo.of("admin", "system:masters"),
              "carol-token", UserInfo.of("carol"))))
          .authorizer(rbac)
          .auditor(Audit.of(AuditPolicy.parse("""
              apiVersion: audit.k8s.io/v1
              kind: Policy
              rules:
              - level: Metadata
              """), events))
          .build();
      http.start();
      Kubectl admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
          http.kubeconfig().certificateAuthority(ca).token("admin-token").build());
      Kubectl carol = new Kubectl(Files.createDirectories(dir.resolve("carol")),
          http.kubeconfig().certificateAuthority(ca).token("carol-token").build());
      admin.ok("create", "namespace", "ci");
      Kubectl.Result role = admin.runWithInput(ROLE, "apply", "-f", "-");
      assertThat(role.exitCode()).as(role.toString()).isZero();
      admin.ok("create", "clusterrolebinding", "carol-impersonates",
          "--clusterrole=constrained-impersonator", "--user=carol");
      admin.ok("-n", "ci", "create", "rolebinding", "dave-views", "--clusterrole=view",
          "--user=dave");
      // discovery as carol herself, so that kubectl's first impersonated request is the one
      // under test (with an empty cache it would discover as the impersonated user first)
      Kubectl.Result discovery = carol.run("api-resources", "-o", "name");
      assertThat(discovery.exitCode()).as(discovery.toString()).isZero();
      return new Server(store, rbac, api, http, admin, carol);
    }

    @Override
    public void close() {
      http.close();
      api.close();
      rbac.close();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    on = Server.start(Files.createDirectories(dir.resolve("on")), "");
    off = Server.start(Files.createDirectories(dir.resolve("off")),
        "ConstrainedImpersonation=false");
  }

  @AfterAll
  static void stop() {
    on.close();
    off.close();
  }

  @Test
  void theGrantedVerbsRunAsTheImpersonatedUser() {
    Kubectl.Result list = on.carol().run("-n", "ci", "get", "pods", "--as=dave");
    assertThat(list.exitCode()).as(list.toString()).isZero();
    assertThat(list.stderr()).contains("No resources found in ci namespace.");
    // the SelfSubjectAccessReview is created as dave, who may view ci but not delete in it
    assertThat(on.carol().run("-n", "ci", "auth", "can-i", "list", "pods", "--as=dave")
        .stdout().trim()).isEqualTo("yes");
    assertThat(on.carol().run("-n", "ci", "auth", "can-i", "delete", "pods", "--as=dave")
        .stdout().trim()).isEqualTo("no");
  }

  @Test
  void nonResourcePathsAreAskedByPath() {
    assertThat(on.carol().ok("get", "--raw", "/api", "--as=dave")).contains("\"kind\":"
        + "\"APIVersions\"");
    Kubectl.Result version = on.carol().run("get", "--raw", "/version", "--as=dave");
    assertThat(version.exitCode()).isNotZero();
    assertThat(version.stderr()).contains("forbidden: User \"carol\" cannot"
        + " impersonate-on:user-info:get path \"/version\"");
  }

  @Test
  void aVerbNotGrantedUnderImpersonationIsRefusedByTheImpersonateOnCheck() {
    Kubectl.Result create = on.carol().run("-n", "ci", "create", "configmap", "x",
        "--as=dave");
    assertThat(create.exitCode()).isNotZero();
    assertThat(create.stderr()).contains("error: failed to create configmap: configmaps is"
        + " forbidden: User \"carol\" cannot impersonate-on:user-info:create resource"
        + " \"configmaps\" in API group \"\" in the namespace \"ci\"");
  }

  @Test
  void aServiceAccountIsImpersonatedInItsOwnMode() {
    Kubectl.Result sa = on.carol().run("-n", "ci", "get", "pods",
        "--as=system:serviceaccount:ci:default");
    assertThat(sa.stderr()).contains("Error from server (Forbidden): pods is forbidden: User"
        + " \"carol\" cannot impersonate-on:serviceaccount:list resource \"pods\" in API group"
        + " \"\" in the namespace \"ci\"");
  }

  @Test
  void systemMastersIsNeverImpersonatedInUserInfoMode() {
    Kubectl.Result masters = on.carol().run("-n", "ci", "get", "pods", "--as=dave",
        "--as-group=system:masters");
    assertThat(masters.stderr()).contains("Error from server (Forbidden): groups.authentication"
        + ".k8s.io \"system:masters\" is forbidden: User \"carol\" cannot impersonate:user-info"
        + " resource \"groups\" in API group \"authentication.k8s.io\" at the cluster scope:"
        + " impersonating the system:masters group is not allowed");
  }

  @Test
  void theAuditEventNamesTheConstraint() throws Exception {
    on.carol().ok("-n", "ci", "get", "pod", "audited", "--ignore-not-found", "--as=dave");
    AuditEvent e = events.await(x -> x.stage() == AuditStage.RESPONSE_COMPLETE
        && x.requestUri().equals("/api/v1/namespaces/ci/pods/audited")
        && x.user().name().equals("carol"));
    assertThat(Json.write(e.toValue())).contains("\"user\":{\"username\":\"carol\",\"groups\":"
        + "[\"system:authenticated\"]},\"impersonatedUser\":{\"username\":\"dave\",\"groups\":"
        + "[\"system:authenticated\"]},\"authenticationMetadata\":{\"impersonationConstraint\":"
        + "\"impersonate:user-info\"},\"sourceIPs\"");
  }

  @Test
  void withTheGateOffOnlyLegacyImpersonationCounts() throws Exception {
    Kubectl.Result legacy = off.carol().run("-n", "ci", "get", "pods", "--as=dave");
    assertThat(legacy.exitCode()).isNotZero();
    assertThat(legacy.stderr()).contains("Error from server (Forbidden): users \"dave\" is"
        + " forbidden: User \"carol\" cannot impersonate resource \"users\" in API group \"\""
        + " at the cluster scope");
    // legacy impersonation records no constraint
    off.admin().ok("-n", "ci", "get", "pod", "legacy", "--ignore-not-found", "--as=dave");
    AuditEvent e = events.await(x -> x.stage() == AuditStage.RESPONSE_COMPLETE
        && x.requestUri().equals("/api/v1/namespaces/ci/pods/legacy"));
    assertThat(e.impersonatedUser()).contains(UserInfo.of("dave", "system:authenticated"));
    assertThat(e.impersonationConstraint()).isEmpty();
    assertThat(e.toValue().containsKey("authenticationMetadata")).isFalse();
  }
}
