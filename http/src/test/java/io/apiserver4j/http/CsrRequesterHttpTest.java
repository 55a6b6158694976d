/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CertificateSigningRequests created over HTTPS (kubectl with a token, a plain client without): the stored request names the
 * authenticated user (bearer token) with the groups kube's authentication adds
 * ({@code system:authenticated}), or {@code system:anonymous} in {@code system:unauthenticated}
 * for a request without credentials, whatever the client wrote into spec (kube's
 * csrStrategy.PrepareForCreate).
 */
class CsrRequesterHttpTest {
  // an ECDSA P-256 CSR (openssl req -new, CN=alice, O=dev), as in SpecialSubresourcesHttpTest
  private static final String REQUEST = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURSBSRVFVRVNULS0tLS0KTUlIYU1JR0FBZ0VBTUI0eERqQU1CZ05WQkFNTUJXRnNhV05sTVF3d0NnWURWUVFLREFOa1pYWXdXVEFUQmdjcQpoa2pPUFFJQkJnZ3Foa2pPUFFNQkJ3TkNBQVF2cHdybUJ0R1ZFKzdNMEJBUW9VTHJkU2YvUjdWOFp0eUdFVFQzCjJ0Ykh2QlFNdE5CdWd0bkd4bEg1TXo5dmU0UEgwdEFBZmRId3FWdHJFTC90ZWx4eW9BQXdDZ1lJS29aSXpqMEUKQXdJRFNRQXdSZ0loQVBMQU1JZmF0amxCa0R5ZDNIcld5eGl2WlpEZjRsd080dUl6dHo4d2dyUjNBaUVBNkNjawp4bzFHcG1ONWM2aUM4R2JKUVQ0NWJHVzhYT0gxLzNITjNJQmlYUkk9Ci0tLS0tRU5EIENFUlRJRklDQVRFIFJFUVVFU1QtLS0tLQo=";

  @TempDir
  static Path dir;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl alice;
  static HttpClient anonymous;

  @BeforeAll
  static void start() throws Exception {
    api = ApiServer.builder().build();
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    String ca = Files.readString(pki.caCert);
    http = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
        .authenticator(Authenticators.bearerTokens(Map.of("alice-token", new UserInfo("alice",
            "alice-uid", List.of("dev"), Map.of("scopes", List.of("csr"))))))
        .anonymous(true)
        .build();
    http.start();
    alice = new Kubectl(Files.createDirectories(dir.resolve("alice")),
        http.kubeconfig().certificateAuthority(ca).token("alice-token").build());
    // kubectl asks for a password without credentials: a plain client trusting the CA
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(pki.caCert)) {
      trust.setCertificateEntry("ca",
          CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ssl = SSLContext.getInstance("TLS");
    ssl.init(null, tmf.getTrustManagers(), null);
    anonymous = HttpClient.newBuilder().sslContext(ssl).build();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  private static String yaml(String name) {
    return String.join("\n",
        "apiVersion: certificates.k8s.io/v1",
        "kind: CertificateSigningRequest",
        "metadata: {name: " + name + "}",
        "spec:",
        "  request: " + REQUEST,
        "  signerName: example.com/signer",
        "  usages: [client auth]",
        "  username: mallory",
        "  uid: forged",
        "  groups: [system:masters]",
        "");
  }

  private static MapValue stored(String name) {
    return Nested.map(api.resources("certificates.k8s.io/v1", "certificatesigningrequests")
        .get(name), "spec");
  }

  @Test
  void theStoredRequesterIsTheAuthenticatedUser() {
    alice.file("by-alice.yaml", yaml("by-alice"));
    assertThat(alice.ok("create", "-f", "by-alice.yaml"))
        .contains("certificatesigningrequest.certificates.k8s.io/by-alice created");
    MapValue spec = stored("by-alice");
    assertThat(Nested.str(spec, "username")).isEqualTo("alice");
    assertThat(Nested.str(spec, "uid")).isEqualTo("alice-uid");
    assertThat(Json.write(spec.getOrNull("groups")))
        .isEqualTo("[\"dev\",\"system:authenticated\"]");
    assertThat(Json.write(spec.getOrNull("extra"))).isEqualTo("{\"scopes\":[\"csr\"]}");
  }

  @Test
  void aRequestWithoutCredentialsIsRecordedAsAnonymous() throws Exception {
    HttpResponse<String> r = anonymous.send(HttpRequest.newBuilder(
            http.url().resolve("/apis/certificates.k8s.io/v1/certificatesigningrequests"))
        .header("Content-Type", "application/yaml")
        .POST(HttpRequest.BodyPublishers.ofString(yaml("by-anonymous"))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    MapValue spec = stored("by-anonymous");
    assertThat(Nested.str(spec, "username")).isEqualTo("system:anonymous");
    assertThat(Json.write(spec.getOrNull("groups"))).isEqualTo("[\"system:unauthenticated\"]");
    assertThat(spec.asMap().keySet()).doesNotContain("uid", "extra");
  }
}
