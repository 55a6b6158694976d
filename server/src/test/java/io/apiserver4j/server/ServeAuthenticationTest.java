/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.http.Kubeconfig;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.TestCertificates;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authentication flags of kube-apiserver through the real kubectl: {@code --client-ca-file}
 * (the certificate's CN is the user, its O the groups), ServiceAccount tokens issued by
 * {@code kubectl create token} under {@code --service-account-issuer}, and
 * {@code --anonymous-auth} (kube's default true: a request without credentials is
 * system:anonymous, for RBAC to judge).
 */
class ServeAuthenticationTest {
  @TempDir
  static Path dir;
  static TestCertificates pki;
  static Serve.Running running;
  static ServeOptions options;
  static Kubectl admin;

  @BeforeAll
  static void start() throws Exception {
    pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    options = ServeOptions.parse("--secure-port", "0", "--authorization-mode=RBAC",
        "--client-ca-file", pki.caCert.toString(), "--tls-cert-file", pki.serverCert.toString(),
        "--tls-private-key-file", pki.serverKey.toString(),
        "--service-account-issuer", "https://issuer.example.com");
    running = Serve.start(options);
    admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
        running.kubeconfig(options));
  }

  @AfterAll
  static void stop() {
    running.close();
  }

  private static Kubeconfig.Builder config() throws Exception {
    return running.http().kubeconfig().certificateAuthority(Files.readString(pki.serverCert));
  }

  @Test
  void aClientCertificateNamesTheUserAndItsGroups() throws Exception {
    Path[] alice = pki.client("alice", "CN=alice,O=devs,O=ops");
    Kubectl kubectl = new Kubectl(Files.createDirectories(dir.resolve("alice")), config()
        .clientCertificate(Files.readString(alice[0]), Files.readString(alice[1])).build());
    assertThat(kubectl.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"
        + " {.status.userInfo.groups}"))
        .isEqualTo("alice [\"ops\",\"devs\",\"system:authenticated\"]");
  }

  @Test
  void theSystemMonitoringGroupMayReadMetricsAsKubesBootstrapPolicySays() throws Exception {
    Path[] prometheus = pki.client("prometheus", "CN=prometheus,O=system:monitoring");
    Kubectl scraper = new Kubectl(Files.createDirectories(dir.resolve("prometheus")), config()
        .clientCertificate(Files.readString(prometheus[0]), Files.readString(prometheus[1]))
        .build());
    assertThat(scraper.ok("get", "--raw", "/metrics")).contains("apiserver_request_total");
    Path[] bob = pki.client("bob", "CN=bob");
    Kubectl other = new Kubectl(Files.createDirectories(dir.resolve("bob")), config()
        .clientCertificate(Files.readString(bob[0]), Files.readString(bob[1])).build());
    assertThat(other.run("get", "--raw", "/metrics").stderr())
        .contains("forbidden: User \"bob\" cannot get path \"/metrics\"");
  }

  @Test
  void aServiceAccountTokenFromKubectlCreateTokenAuthenticates() throws Exception {
    admin.ok("create", "serviceaccount", "robot");
    String token = admin.ok("create", "token", "robot").trim();
    String claims = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]),
        StandardCharsets.UTF_8);
    assertThat(claims).contains("\"iss\":\"https://issuer.example.com\"")
        .contains("\"sub\":\"system:serviceaccount:default:robot\"");
    Kubectl robot = new Kubectl(Files.createDirectories(dir.resolve("robot")),
        config().token(token).build());
    assertThat(robot.ok("auth", "whoami", "-o", "jsonpath={.status.userInfo.username}"))
        .isEqualTo("system:serviceaccount:default:robot");
    // kube's bootstrap policy gives service accounts nothing on pods
    assertThat(robot.run("get", "pods").stderr()).contains("pods is forbidden: User"
        + " \"system:serviceaccount:default:robot\" cannot list resource \"pods\" in API group"
        + " \"\" in the namespace \"default\"");
  }

  /** GET {@code path} without credentials, trusting the test CA. */
  private static HttpResponse<String> getWithoutCredentials(Serve.Running server, String path)
      throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(pki.caCert)) {
      trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, tmf.getTrustManagers(), null);
    HttpClient client = HttpClient.newBuilder().sslContext(tls).build();
    return client.send(HttpRequest.newBuilder(server.http().url().resolve(path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void withoutCredentialsARequestIsAnonymous() throws Exception {
    HttpResponse<String> r = getWithoutCredentials(running, "/api/v1/namespaces/default/pods");
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(Meta.string((MapValue) Json.read(r.body()), "message")).isEqualTo("pods is"
        + " forbidden: User \"system:anonymous\" cannot list resource \"pods\" in API group \"\""
        + " in the namespace \"default\"");
  }

  @Test
  void anonymousAuthFalseAnswers401() throws Exception {
    ServeOptions closed = ServeOptions.parse("--secure-port", "0", "--authorization-mode=RBAC",
        "--anonymous-auth=false", "--tls-cert-file", pki.serverCert.toString(),
        "--tls-private-key-file", pki.serverKey.toString());
    try (Serve.Running other = Serve.start(closed)) {
      HttpResponse<String> r = getWithoutCredentials(other, "/api/v1/namespaces/default/pods");
      assertThat(r.statusCode()).isEqualTo(401);
      // kube's 401 body
      assertThat(r.body()).contains("\"reason\":\"Unauthorized\"")
          .contains("\"message\":\"Unauthorized\"");
    }
  }
}
