/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.ClusterSigning;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.controllers.certificates.TestCsrs;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.ByteArrayInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The csrsigning controller with kube-controller-manager's {@code --cluster-signing-*} files: a
 * CA made in the test with the JDK is written to temporary files, and approved requests come
 * back signed by it, valid for {@code --cluster-signing-duration}; a signer without files beside
 * per-signer ones is left alone; unreadable files fail the start in kube's words.
 */
class CsrSigningFromFilesScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final GroupVersionResource CSRS =
      new GroupVersionResource("certificates.k8s.io", "v1", "certificatesigningrequests");
  private static final UserInfo JOE = UserInfo.of("joe", "system:authenticated");

  @TempDir
  Path dir;
  private final KeyPair caKey = TestCsrs.key();
  private X509Certificate caCert;
  private Path certFile;
  private Path keyFile;
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void writeCa() throws Exception {
    String pem = CertificateAuthority.selfSigned(caKey, NOW.minus(Duration.ofDays(1)))
        .certificatePem();
    caCert = parse(pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    certFile = dir.resolve("ca.crt");
    keyFile = dir.resolve("ca.key");
    Files.writeString(certFile, pem);
    Files.writeString(keyFile, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64,
        new byte[] {'\n'}).encodeToString(caKey.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n");
    api = ApiServer.builder().bootstrap(false).clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
  }

  private void start(ClusterSigning signing) {
    controllers = ControllerManager.builder(api).clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .controllers("csrsigning").clusterSigning(signing).start();
  }

  private static X509Certificate parse(byte[] pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509")
        .generateCertificate(new ByteArrayInputStream(pem));
  }

  /** Creates a kube-apiserver-client request and approves it, as an admin would. */
  private void approvedRequest(String name, String signer, List<String> usages) {
    MapValue csr = api.resources(CSRS).user(JOE).create(MapValue.ofEntries("apiVersion",
        Value.of("certificates.k8s.io/v1"), "kind", Value.of("CertificateSigningRequest"),
        "metadata", MapValue.ofEntries("name", Value.of(name)), "spec", MapValue.ofEntries(
            "request", Value.of(TestCsrs.request(TestCsrs.key(), "joe", List.of("devs"),
                List.of())), "signerName", Value.of(signer),
            "usages", ListValue.of(usages.stream().map(Value::of).toList()))));
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, CSRS).name(name)
        .subresource("approval").options(UpdateOptions.defaults())
        .body(csr.with("status", MapValue.ofEntries("conditions", ListValue.of(List.of(
            MapValue.ofEntries("type", Value.of("Approved"), "status", Value.of("True"),
                "reason", Value.of("Test"))))))).build()).orThrow();
  }

  @Test
  void signsWithTheClusterSigningFilesForTheConfiguredDuration() throws Exception {
    start(ClusterSigning.builder().file("cluster-signing-cert-file", certFile.toString())
        .file("cluster-signing-key-file", keyFile.toString()).duration(Duration.ofHours(2))
        .build());
    approvedRequest("joe", "kubernetes.io/kube-apiserver-client", List.of("client auth"));
    assertThat(controllers.awaitIdle(IDLE)).isTrue();
    X509Certificate cert = parse(Base64.getDecoder().decode(Nested.str(
        api.resources(CSRS).get("joe"), "status", "certificate")));
    cert.verify(caKey.getPublic());
    assertThat(cert.getIssuerX500Principal()).isEqualTo(caCert.getSubjectX500Principal());
    assertThat(cert.getNotAfter()).isEqualTo(Date.from(NOW.plus(Duration.ofHours(2))));
  }

  @Test
  void perSignerFilesLeaveTheOtherSignersAlone() throws Exception {
    start(ClusterSigning.builder()
        .file("cluster-signing-kube-apiserver-client-cert-file", certFile.toString())
        .file("cluster-signing-kube-apiserver-client-key-file", keyFile.toString()).build());
    approvedRequest("kubelet", "kubernetes.io/kube-apiserver-client-kubelet",
        List.of("digital signature", "client auth"));
    approvedRequest("client", "kubernetes.io/kube-apiserver-client", List.of("client auth"));
    assertThat(controllers.awaitIdle(IDLE)).isTrue();
    assertThat(Nested.str(api.resources(CSRS).get("kubelet"), "status", "certificate"))
        .isEmpty();
    parse(Base64.getDecoder().decode(Nested.str(api.resources(CSRS).get("client"), "status",
        "certificate"))).verify(caKey.getPublic());
  }

  @Test
  void unreadableFilesFailTheStartAsKube() {
    Path missing = dir.resolve("nope.crt");
    assertThatThrownBy(() -> start(ClusterSigning.builder()
        .file("cluster-signing-kubelet-serving-cert-file", missing.toString())
        .file("cluster-signing-kubelet-serving-key-file", keyFile.toString()).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("failed to start kubernetes.io/kubelet-serving certificate controller:"
            + " error reading CA cert file \"" + missing + "\": open " + missing
            + ": no such file or directory");
  }
}
