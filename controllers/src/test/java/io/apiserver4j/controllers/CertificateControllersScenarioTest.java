/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.certificates.TestCsrs;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.ByteArrayInputStream;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * kube's certificate controllers together on a server whose clock the test moves: a kubelet's
 * client request is approved by csrapproving after a SubjectAccessReview the server's
 * authorizer answers (here: nodes only), signed by csrsigning with the requested
 * {@code expirationSeconds}, and deleted by csrcleaner an hour after its approval; a request the
 * authorizer refuses stays pending until the cleaner's 24 hours; a request breaking its
 * signer's rules gets the {@code Failed} condition.
 */
class CertificateControllersScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private static final UserInfo NODE =
      UserInfo.of("system:node:n1", "system:nodes", "system:authenticated");
  private static final UserInfo JOE = UserInfo.of("joe", "system:authenticated");
  private static final KeyPair KEY = TestCsrs.key();

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private final List<MapValue> reviews = new java.util.concurrent.CopyOnWriteArrayList<>();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .virtualCreate(new GroupResource("authorization.k8s.io", "subjectaccessreviews"),
            (user, ns, review) -> {
              reviews.add(review);
              boolean node = Nested.list(review, "spec", "groups").stream()
                  .anyMatch(g -> Nested.str(g).equals("system:nodes"));
              return review.with("status", MapValue.ofEntries("allowed", Value.of(node)));
            })
        .build();
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("csrapproving,csrsigning,csrcleaner").start();
    idle();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private void advance(Duration d) {
    clock.set(clock.instant().plus(d));
    idle();
  }

  private ResourceClient csrs() {
    return api.resources(CSRS);
  }

  private void create(UserInfo user, String name, String signer, String cn, List<String> orgs,
      List<String> usages, Optional<Integer> expirationSeconds) {
    MapValue spec = MapValue.ofEntries("request", Value.of(TestCsrs.request(KEY, cn, orgs,
        List.of())), "signerName", Value.of(signer), "usages",
        ListValue.of(usages.stream().map(Value::of).toList()));
    if (expirationSeconds.isPresent()) {
      spec = spec.with("expirationSeconds", Value.of(expirationSeconds.get()));
    }
    api.resources(CSRS).user(user).create(MapValue.ofEntries("apiVersion",
        Value.of("certificates.k8s.io/v1"), "kind", Value.of("CertificateSigningRequest"),
        "metadata", MapValue.ofEntries("name", Value.of(name)), "spec", spec));
  }

  private static Optional<Value> condition(MapValue csr, String type) {
    return Nested.list(csr, "status", "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(type)).findFirst();
  }

  @Test
  void kubeletClientRequestIsApprovedSignedAndCleanedUp() throws Exception {
    create(NODE, "node-csr", "kubernetes.io/kube-apiserver-client-kubelet", "system:node:n1",
        List.of("system:nodes"), List.of("digital signature", "client auth"), Optional.of(3600));
    idle();
    MapValue csr = csrs().get("node-csr");
    Value approved = condition(csr, "Approved").orElseThrow();
    assertThat(Nested.str(approved, "reason")).isEqualTo("AutoApproved");
    assertThat(Nested.str(approved, "message"))
        .isEqualTo("Auto approving self kubelet client certificate after SubjectAccessReview.");
    MapValue review = reviews.get(0);
    assertThat(Nested.str(review, "spec", "user")).isEqualTo("system:node:n1");
    assertThat(Nested.str(review, "spec", "resourceAttributes", "subresource"))
        .isEqualTo("selfnodeclient");
    assertThat(Nested.str(review, "spec", "resourceAttributes", "verb")).isEqualTo("create");

    byte[] pem = Base64.getDecoder().decode(Nested.str(csr, "status", "certificate"));
    X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem));
    assertThat(cert.getSubjectX500Principal().getName())
        .isEqualTo("CN=system:node:n1,O=system:nodes");
    assertThat(cert.getIssuerX500Principal().getName())
        .isEqualTo("CN=apiserver4j-cluster-signer");
    Instant now = clock.instant();
    assertThat(cert.getNotBefore()).isEqualTo(Date.from(now.minus(Duration.ofMinutes(5))));
    assertThat(cert.getNotAfter()).isEqualTo(Date.from(now.plus(Duration.ofHours(1))));
    assertThat(cert.getKeyUsage()[0]).isTrue();
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");

    // the cleaner looks every hour: at +1h the approval is exactly an hour old, not more
    advance(Duration.ofHours(1));
    assertThat(csrs().find("node-csr")).isPresent();
    advance(Duration.ofHours(1));
    assertThat(csrs().find("node-csr")).isEmpty();
  }

  @Test
  void requestTheAuthorizerRefusesStaysPendingUntilTheCleanerTakesIt() {
    create(JOE, "joe-csr", "kubernetes.io/kube-apiserver-client-kubelet", "system:node:n2",
        List.of("system:nodes"), List.of("digital signature", "key encipherment",
            "client auth"), Optional.empty());
    idle();
    MapValue csr = csrs().get("joe-csr");
    assertThat(Nested.list(csr, "status", "conditions")).isEmpty();
    assertThat(reviews).isNotEmpty();
    assertThat(Nested.str(reviews.get(0), "spec", "resourceAttributes", "subresource"))
        .isEqualTo("nodeclient");
    advance(Duration.ofHours(24));
    assertThat(csrs().find("joe-csr")).isPresent();
    advance(Duration.ofHours(1));
    assertThat(csrs().find("joe-csr")).isEmpty();
  }

  @Test
  void approvedRequestBreakingItsSignersRulesFails() {
    create(JOE, "bad-usage", "kubernetes.io/kube-apiserver-client", "joe", List.of(),
        List.of("server auth", "client auth"), Optional.empty());
    idle();
    MapValue csr = csrs().get("bad-usage");
    List<Value> conditions = new ArrayList<>(Nested.list(csr, "status", "conditions"));
    conditions.add(Json.read("{\"type\":\"Approved\",\"status\":\"True\",\"reason\":\"Test\"}"));
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CSRS).name("bad-usage")
        .subresource("approval").options(UpdateOptions.defaults())
        .body(csr.with("status", MapValue.ofEntries("conditions", ListValue.of(conditions))))
        .build()).orThrow();
    idle();
    csr = csrs().get("bad-usage");
    Value failed = condition(csr, "Failed").orElseThrow();
    assertThat(Nested.str(failed, "reason")).isEqualTo("SignerValidationFailure");
    assertThat(Nested.str(failed, "message"))
        .isEqualTo("invalid usage for client certificate: server auth");
    assertThat(Nested.str(failed, "lastUpdateTime")).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Nested.str(csr, "status", "certificate")).isEmpty();
  }
}
