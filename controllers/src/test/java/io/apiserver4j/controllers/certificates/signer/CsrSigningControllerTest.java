/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates.signer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.certificates.CertificateRequest;
import io.apiserver4j.controllers.certificates.TestCsrs;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's pkg/controller/certificates/signer/signer_test.go: {@code TestSigner} (a kubelet
 * request signed with signing, key encipherment, server and client auth and a duration over the
 * TTL: notBefore five minutes back, notAfter the one-hour TTL on), the validation outcomes of
 * {@code TestHandle} per signer, and {@code Test_signer_duration}. Certificates are parsed with
 * {@code java.security.cert}.
 */
class CsrSigningControllerTest {
  private static final KeyPair KEY = TestCsrs.key();
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  private static X509Certificate parse(String pem) throws Exception {
    return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
  }

  @Test
  void signer() throws Exception {
    CertificateAuthority ca = CertificateAuthority.generate(NOW.minus(Duration.ofDays(1)));
    CertificateRequest request = CertificateRequest.parse(TestCsrs.request(KEY,
        "system:node:k-a-node-s36b", List.of("system:nodes"), List.of()));
    // requesting a duration that is greater than TTL is ignored
    Duration ttl = SigningPolicy.duration(3 * 3600L, Duration.ofHours(1));
    X509Certificate cert = parse(ca.sign(request, List.of("signing", "key encipherment",
        "server auth", "client auth"), ttl, NOW));
    X509Certificate caCert = parse(ca.certificatePem());

    assertThat(cert.getVersion()).isEqualTo(3);
    assertThat(cert.getSubjectX500Principal().getName())
        .isEqualTo("CN=system:node:k-a-node-s36b,O=system:nodes");
    assertThat(cert.getIssuerX500Principal()).isEqualTo(caCert.getSubjectX500Principal());
    assertThat(cert.getIssuerX500Principal().getName())
        .isEqualTo("CN=" + CertificateAuthority.COMMON_NAME);
    // digitalSignature, nonRepudiation, keyEncipherment, ...
    assertThat(cert.getKeyUsage()).startsWith(true, false, true, false, false, false);
    assertThat(cert.getCriticalExtensionOIDs()).contains("2.5.29.15", "2.5.29.19");
    assertThat(cert.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1",
        "1.3.6.1.5.5.7.3.2");
    assertThat(cert.getBasicConstraints()).isEqualTo(-1);
    assertThat(cert.getNotBefore()).isEqualTo(Date.from(NOW.minus(Duration.ofMinutes(5))));
    assertThat(cert.getNotAfter()).isEqualTo(Date.from(NOW.plus(Duration.ofHours(1))));
    assertThat(cert.getPublicKey()).isEqualTo(KEY.getPublic());
    assertThat(cert.getSigAlgName()).isEqualTo("SHA256withECDSA");
    cert.verify(caCert.getPublicKey());
    caCert.verify(caCert.getPublicKey());
    assertThat(caCert.getBasicConstraints()).isGreaterThanOrEqualTo(0);
  }

  @Test
  void longCertificatesAreBackdatedAtBothEndsAndEndWithTheSigner() throws Exception {
    CertificateAuthority ca = CertificateAuthority.generate(NOW);
    CertificateRequest request = CertificateRequest.parse(TestCsrs.request(KEY, "alice",
        List.of(), List.of("alice.example")));
    X509Certificate cert = parse(ca.sign(request, List.of("client auth"), Duration.ofHours(8),
        NOW));
    assertThat(cert.getNotAfter()).isEqualTo(Date.from(NOW.plus(Duration.ofHours(8))
        .minus(Duration.ofMinutes(5))));
    assertThat(cert.getSubjectAlternativeNames()).containsExactly(List.of(2, "alice.example"));
    X509Certificate capped = parse(ca.sign(request, List.of("client auth"),
        Duration.ofDays(20_000), NOW));
    assertThat(capped.getNotAfter()).isEqualTo(Date.from(ca.notAfter()));
  }

  @Test
  void unrecognizedUsageIsRefused() {
    CertificateAuthority ca = CertificateAuthority.generate(NOW);
    CertificateRequest request = CertificateRequest.parse(TestCsrs.request(KEY, "bob",
        List.of(), List.of()));
    assertThatThrownBy(() -> ca.sign(request, List.of("client auth", "flying"),
        Duration.ofHours(1), NOW)).hasMessage("unrecognized usage values: [\"flying\"]");
  }

  static Stream<Arguments> handle() {
    List<String> client = List.of("client auth", "digital signature", "key encipherment");
    List<String> serving = List.of("server auth", "digital signature", "key encipherment");
    return Stream.of(
        Arguments.of("kube-apiserver-client", "kubernetes.io/kube-apiserver-client",
            "hello-world", List.of("some-org"), List.of(), client, ""),
        Arguments.of("kube-apiserver-client with an unexpected usage",
            "kubernetes.io/kube-apiserver-client", "hello-world", List.of("some-org"),
            List.of(), List.of("server auth", "client auth", "digital signature",
                "key encipherment"), "invalid usage for client certificate: server auth"),
        Arguments.of("kube-apiserver-client without client auth",
            "kubernetes.io/kube-apiserver-client", "hello-world", List.of(), List.of(),
            List.of("digital signature"),
            "missing required usage for client certificate: client auth"),
        Arguments.of("kube-apiserver-client-kubelet",
            "kubernetes.io/kube-apiserver-client-kubelet", "system:node:hello-world",
            List.of("system:nodes"), List.of(), client, ""),
        Arguments.of("kube-apiserver-client-kubelet of a non-node",
            "kubernetes.io/kube-apiserver-client-kubelet", "hello-world",
            List.of("system:nodes"), List.of(), client,
            "subject common name does not begin with system:node:"),
        Arguments.of("legacy-unknown", "kubernetes.io/legacy-unknown", "", List.of(),
            List.of(), List.of(), ""),
        Arguments.of("kubelet-serving", "kubernetes.io/kubelet-serving", "system:node:testnode",
            List.of("system:nodes"), List.of("example.com"), serving, ""),
        Arguments.of("kubelet-serving without a DNS name", "kubernetes.io/kubelet-serving",
            "system:node:testnode", List.of("system:nodes"), List.of(), serving,
            "DNS or IP subjectAltName is required"),
        Arguments.of("kubelet-serving with client usages", "kubernetes.io/kubelet-serving",
            "system:node:testnode", List.of("system:nodes"), List.of("example.com"), client,
            "usages did not match [digital signature key encipherment server auth]"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void handle(String name, String signer, String cn, List<String> orgs, List<String> dns,
      List<String> usages, String failure) {
    CertificateRequest request = CertificateRequest.parse(TestCsrs.request(KEY, cn, orgs, dns));
    assertThat(CsrSigningController.validate(signer, request, usages))
        .isEqualTo(failure.isEmpty() ? Optional.empty() : Optional.of(failure));
  }

  static Stream<Arguments> duration() {
    return Stream.of(
        Arguments.of("can request shorter duration than TTL", 30 * 60L, 30 * 60L),
        Arguments.of("cannot request longer duration than TTL", 3 * 3600L, 3600L),
        Arguments.of("cannot request negative duration", -60L, 600L),
        Arguments.of("cannot request duration less than 10 mins", 599L, 600L),
        Arguments.of("can request duration of exactly 10 mins", 600L, 600L),
        Arguments.of("can request duration equal to the default", 3600L, 3600L),
        Arguments.of("can choose not to request a duration to get the default", null, 3600L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void duration(String name, Long expirationSeconds, long want) {
    assertThat(SigningPolicy.duration(expirationSeconds, Duration.ofHours(1)))
        .isEqualTo(Duration.ofSeconds(want));
  }
}
