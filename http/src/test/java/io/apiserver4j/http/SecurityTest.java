/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS from PEM files, client certificates and bearer tokens, the authorizer SPI, and the 401 and
 * 403 answers exactly as kube-apiserver words them.
 */
class SecurityTest {
  @TempDir
  static Path dir;
  static TestCertificates pki;
  static ApiServer api;
  static HttpApiServer https;
  static URI base;
  static HttpClient alice;
  static HttpClient anonymous;
  static final ConcurrentLinkedQueue<AuthorizationAttributes> seen =
      new ConcurrentLinkedQueue<>();

  /**
   * alice (group devs) may do anything. bob may read, patch and delete configmaps in
   * "default" and nothing else; carol may only read /version.
   */
  static AuthorizationDecision authorize(AuthorizationAttributes a) {
    seen.add(a);
    if (a.user().groups().contains("devs")) {
      return AuthorizationDecision.allow();
    }
    if (a.user().name().equals("bob") && a.resourceRequest() && a.resource().equals("configmaps")
        && a.namespace().equals("default")
        && List.of("get", "list", "watch", "patch", "delete").contains(a.verb())) {
      return AuthorizationDecision.allow();
    }
    if (a.user().name().equals("bob") && !a.resourceRequest()) {
      return a.path().equals("/version") ? AuthorizationDecision.deny("")
          : AuthorizationDecision.allow();
    }
    return AuthorizationDecision.deny(a.user().name().equals("bob") ? "" : "not in the list");
  }

  @BeforeAll
  static void start() throws Exception {
    pki = TestCertificates.create(dir);
    pki.client("alice", "CN=alice,O=devs");
    api = ApiServer.builder().build();
    https = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey).withClientCa(pki.caCert))
        .authenticator(Authenticators.firstOf(Authenticators.clientCertificates(),
            Authenticators.bearerTokens(Map.of("bob-token", UserInfo.of("bob", "staff")))))
        .authorizer(SecurityTest::authorize)
        .build();
    https.start();
    base = https.url();
    alice = HttpClient.newBuilder().sslContext(ssl(true)).build();
    anonymous = HttpClient.newBuilder().sslContext(ssl(false)).build();
  }

  @AfterAll
  static void stop() {
    https.close();
    api.close();
  }

  static SSLContext ssl(boolean withClientCert) throws Exception {
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(
        TrustManagerFactory.getDefaultAlgorithm());
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(pki.caCert)) {
      trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
          .generateCertificate(in));
    }
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    if (withClientCert) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(pki.clientKeyStore("alice"))) {
        keys.load(in, TestCertificates.password());
      }
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(
          KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, TestCertificates.password());
      ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    } else {
      ctx.init(null, tmf.getTrustManagers(), null);
    }
    return ctx;
  }

  static HttpResponse<String> send(HttpClient client, String method, String path,
      String contentType, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).method(method,
        body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    for (int i = 0; i < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> asBob(String method, String path, String contentType, String body)
      throws Exception {
    return send(anonymous, method, path, contentType, body, "Authorization", "Bearer bob-token");
  }

  static String cm(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
        + "\"},\"data\":{\"a\":\"b\"}}";
  }

  static String forbidden(String message, String name, String group, String kind) {
    MapValue.Builder details = MapValue.builder();
    if (!name.isEmpty()) {
      details.put("name", Value.of(name));
    }
    if (!group.isEmpty()) {
      details.put("group", Value.of(group));
    }
    if (!kind.isEmpty()) {
      details.put("kind", Value.of(kind));
    }
    MapValue.Builder b = MapValue.builder()
        .put("kind", Value.of("Status")).put("apiVersion", Value.of("v1"))
        .put("metadata", MapValue.empty()).put("status", Value.of("Failure"))
        .put("message", Value.of(message)).put("reason", Value.of("Forbidden"));
    // Go always sets the details of a Forbidden error, so even empty ones are written
    b.put("details", details.build());
    // kube's serializer (Go's json.Encoder) ends the document with a newline
    return Json.write(b.put("code", Value.of(403)).build()) + "\n";
  }

  @Test
  void clientCertificateIdentifiesTheUser() throws Exception {
    seen.clear();
    HttpResponse<String> r = send(alice, "GET", "/api/v1/namespaces/default/configmaps", null,
        null);
    assertThat(r.statusCode()).isEqualTo(200);
    AuthorizationAttributes a = seen.stream().filter(x -> x.resourceRequest()).findFirst()
        .orElseThrow();
    assertThat(a.user().name()).isEqualTo("alice");
    assertThat(a.user().groups()).containsExactly("devs", "system:authenticated");
    assertThat(a.verb()).isEqualTo("list");
    assertThat(a.resource()).isEqualTo("configmaps");
    assertThat(a.namespace()).isEqualTo("default");
  }

  @Test
  void requestsWithoutValidCredentialsAre401() throws Exception {
    String unauthorized = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\","
        + "\"code\":401}\n";
    HttpResponse<String> none = send(anonymous, "GET", "/api/v1/namespaces/default/configmaps",
        null, null);
    assertThat(none.statusCode()).isEqualTo(401);
    assertThat(none.body()).isEqualTo(unauthorized);
    HttpResponse<String> badToken = send(anonymous, "GET", "/version", null, null,
        "Authorization", "Bearer wrong");
    assertThat(badToken.statusCode()).isEqualTo(401);
    assertThat(badToken.body()).isEqualTo(unauthorized);
  }

  @Test
  void deniedRequestsAre403WithKubesMessages() throws Exception {
    HttpResponse<String> create = asBob("POST", "/api/v1/namespaces/default/configmaps",
        "application/json", cm("x"));
    assertThat(create.statusCode()).isEqualTo(403);
    assertThat(create.body()).isEqualTo(forbidden("configmaps is forbidden: User \"bob\" cannot"
        + " create resource \"configmaps\" in API group \"\" in the namespace \"default\"", "", "",
        "configmaps"));

    HttpResponse<String> list = asBob("GET", "/apis/apps/v1/namespaces/default/deployments",
        null, null);
    assertThat(list.body()).isEqualTo(forbidden("deployments.apps is forbidden: User \"bob\""
        + " cannot list resource \"deployments\" in API group \"apps\" in the namespace"
        + " \"default\"", "", "apps", "deployments"));

    HttpResponse<String> cluster = asBob("GET", "/api/v1/namespaces", null, null);
    assertThat(cluster.body()).isEqualTo(forbidden("namespaces is forbidden: User \"bob\" cannot"
        + " list resource \"namespaces\" in API group \"\" at the cluster scope", "", "",
        "namespaces"));

    HttpResponse<String> scale = asBob("PATCH",
        "/apis/apps/v1/namespaces/default/deployments/web/scale", "application/merge-patch+json",
        "{}");
    assertThat(scale.body()).isEqualTo(forbidden("deployments.apps \"web\" is forbidden: User"
        + " \"bob\" cannot patch resource \"deployments/scale\" in API group \"apps\" in the"
        + " namespace \"default\"", "web", "apps", "deployments"));

    HttpResponse<String> other = send(anonymous, "GET", "/api/v1/namespaces/kube-system/pods",
        null, null, "Authorization", "Bearer bob-token");
    assertThat(other.statusCode()).isEqualTo(403);

    HttpResponse<String> path = asBob("GET", "/version", null, null);
    assertThat(path.body()).isEqualTo(forbidden("forbidden: User \"bob\" cannot get path"
        + " \"/version\"", "", "", ""));
  }

  @Test
  void applyOfAMissingObjectAlsoNeedsCreate() throws Exception {
    String apply = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":"
        + "\"applied\"},\"data\":{\"k\":\"v\"}}";
    HttpResponse<String> missing = asBob("PATCH",
        "/api/v1/namespaces/default/configmaps/applied?fieldManager=bob",
        "application/apply-patch+yaml", apply);
    assertThat(missing.statusCode()).isEqualTo(403);
    // kube's ForbiddenStatusError of the create-on-update authorization
    assertThat(missing.body()).isEqualTo(forbidden("configmaps \"applied\" is forbidden: User"
        + " \"bob\" cannot create resource \"configmaps\" in API group \"\" in the namespace"
        + " \"default\"", "applied", "", "configmaps"));
    assertThat(send(alice, "GET", "/api/v1/namespaces/default/configmaps/applied", null, null)
        .statusCode()).isEqualTo(404);

    // once the object exists, patch is enough
    assertThat(send(alice, "POST", "/api/v1/namespaces/default/configmaps", "application/json",
        cm("applied")).statusCode()).isEqualTo(201);
    HttpResponse<String> existing = asBob("PATCH",
        "/api/v1/namespaces/default/configmaps/applied?fieldManager=bob",
        "application/apply-patch+yaml", apply);
    assertThat(existing.statusCode()).isEqualTo(200);
  }

  @Test
  void bearerTokenUserCanDoWhatTheAuthorizerAllows() throws Exception {
    send(alice, "POST", "/api/v1/namespaces/default/configmaps", "application/json", cm("mine"));
    assertThat(asBob("GET", "/api/v1/namespaces/default/configmaps/mine", null, null)
        .statusCode()).isEqualTo(200);
    assertThat(asBob("DELETE", "/api/v1/namespaces/default/configmaps/mine", null, null)
        .statusCode()).isEqualTo(200);
  }

  @Test
  void http2OverTlsWithAlpn() throws Exception {
    SslContextFactory.Client tls = new SslContextFactory.Client();
    tls.setSslContext(ssl(true));
    HTTP2Client h2 = new HTTP2Client();
    org.eclipse.jetty.client.HttpClient jetty = new org.eclipse.jetty.client.HttpClient(
        new HttpClientTransportOverHTTP2(h2));
    jetty.setSslContextFactory(tls);
    jetty.start();
    try {
      ContentResponse r = jetty.newRequest(base.resolve("/api/v1/namespaces/default/configmaps"))
          .timeout(10, TimeUnit.SECONDS).send();
      assertThat(r.getVersion()).isEqualTo(HttpVersion.HTTP_2);
      assertThat(r.getStatus()).isEqualTo(200);
    } finally {
      jetty.stop();
    }
  }

  @Test
  void kubectlWithClientCertificateAndToken() throws Exception {
    Kubectl asAlice = new Kubectl(Files.createDirectories(dir.resolve("kubectl-alice")),
        https.kubeconfig().certificateAuthority(Files.readString(pki.caCert))
            .clientCertificate(Files.readString(dir.resolve("alice.pem")),
                Files.readString(dir.resolve("alice-key.pem"))).build());
    asAlice.file("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k\n");
    assertThat(asAlice.ok("apply", "-f", "cm.yaml")).isEqualTo("configmap/k created\n");
    assertThat(asAlice.ok("get", "cm", "k", "-o", "name")).isEqualTo("configmap/k\n");

    Kubectl asBob = new Kubectl(Files.createDirectories(dir.resolve("kubectl-bob")),
        https.kubeconfig().certificateAuthority(Files.readString(pki.caCert))
            .token("bob-token").build());
    asBob.file("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k2\n");
    Kubectl.Result denied = asBob.run("create", "-f", "cm.yaml");
    assertThat(denied.exitCode()).isEqualTo(1);
    assertThat(denied.stderr()).isEqualTo("Error from server (Forbidden): error when creating"
        + " \"cm.yaml\": configmaps is forbidden: User \"bob\" cannot create resource"
        + " \"configmaps\" in API group \"\" in the namespace \"default\"\n");
  }

  @Test
  void anonymousRequestsWhenEnabled() throws Exception {
    try (ApiServer other = ApiServer.builder().build();
        HttpApiServer http = HttpApiServer.builder(other)
            .authenticator(Authenticators.bearerTokens(Map.of()))
            .anonymous(true)
            .authorizer(a -> a.user().name().equals("system:anonymous")
                && a.user().groups().contains("system:unauthenticated") && a.verb().equals("get")
                ? AuthorizationDecision.allow() : AuthorizationDecision.deny(""))
            .build()) {
      http.start();
      HttpClient plain = HttpClient.newHttpClient();
      assertThat(plain.send(HttpRequest.newBuilder(http.url().resolve("/version")).build(),
          HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
      HttpResponse<String> list = plain.send(HttpRequest.newBuilder(http.url()
          .resolve("/api/v1/namespaces/default/configmaps")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(list.statusCode()).isEqualTo(403);
      assertThat(list.body()).contains("User \\\"system:anonymous\\\" cannot list resource");
    }
  }

  @Test
  void unauthenticatedServersOnlyBindLoopback() {
    assertThatThrownBy(() -> HttpApiServer.builder(api).host("0.0.0.0").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("refusing to serve 0.0.0.0 without authentication: set an authenticator or"
            + " bind a loopback address");
    HttpApiServer.builder(api).host("0.0.0.0")
        .authenticator(Authenticators.bearerTokens(Map.of())).build();
    HttpApiServer.builder(api).host("localhost").build();
  }
}
