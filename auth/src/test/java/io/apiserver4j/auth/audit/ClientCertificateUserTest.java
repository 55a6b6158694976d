/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionChain;
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
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateFactory;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client-certificate user as kube's x509 authenticator makes it (k8s.io/apiserver
 * {@code pkg/authentication/request/x509}): its extra carries
 * {@code authentication.kubernetes.io/credential-id: X509SHA256=<hex of the SHA-256 of the leaf
 * certificate>}, which {@code kubectl auth whoami} (a SelfSubjectReview) and the audit event
 * show.
 */
class ClientCertificateUserTest {
  @TempDir
  static Path dir;
  static RecordingSink events = new RecordingSink();
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl carol;
  static String credentialId;

  @BeforeAll
  static void start() throws Exception {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    api = Reviews.install(ApiServer.builder().store(store)
        .admission(AdmissionChain.builder().add(new RbacEscalationCheck(rbac)).build()), rbac)
        .build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    Path[] cert = pki.client("carol", "CN=carol,O=team");
    http = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey).withClientCa(pki.caCert))
        .authenticator(Authenticators.clientCertificates())
        .authorizer(rbac)
        .auditor(Audit.of(AuditPolicy.parse("""
            apiVersion: audit.k8s.io/v1
            kind: Policy
            rules:
            - level: Metadata
            """), events))
        .build();
    http.start();
    String certPem = Files.readString(cert[0]);
    carol = new Kubectl(Files.createDirectories(dir.resolve("carol")), http.kubeconfig()
        .certificateAuthority(Files.readString(pki.caCert))
        .clientCertificate(certPem, Files.readString(cert[1])).build());
    byte[] der = CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(certPem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .getEncoded();
    credentialId = "X509SHA256="
        + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(der));
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    rbac.close();
  }

  @Test
  void theCredentialIdIsInTheSelfSubjectReviewAndTheAuditEvent() throws Exception {
    String userInfo = carol.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo}");

    assertThat(Json.read(userInfo)).isEqualTo(Json.read("{\"username\":\"carol\",\"groups\":"
        + "[\"team\",\"system:authenticated\"],\"extra\":{"
        + "\"authentication.kubernetes.io/credential-id\":[\"" + credentialId + "\"]}}"));
    AuditEvent event = events.await(e -> e.stage() == AuditStage.RESPONSE_COMPLETE
        && e.requestUri().startsWith("/apis/authentication.k8s.io/v1/selfsubjectreviews"));
    assertThat(event.user().extra())
        .isEqualTo(Map.of("authentication.kubernetes.io/credential-id", List.of(credentialId)));
    assertThat(Json.write(event.toValue())).contains("\"user\":{\"username\":\"carol\","
        + "\"groups\":[\"team\",\"system:authenticated\"],\"extra\":{"
        + "\"authentication.kubernetes.io/credential-id\":[\"" + credentialId + "\"]}}");
  }
}
