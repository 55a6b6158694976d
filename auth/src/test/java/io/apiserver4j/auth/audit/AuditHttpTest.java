/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.auth.Reviews;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.TestCertificates;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.storage.InMemoryStore;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Audit through the HTTP front with kubectl and the JDK client, one namespace per level
 * ({@code levels.yaml}). Events are compared field by field, in order, with the
 * {@code audit.k8s.io/v1 Event} kube-apiserver writes (its types, its audit and authorization
 * filters, the event examples of kube's auditing documentation): dynamic values (audit ID,
 * timestamps, user agent) are checked for their form and then masked.
 */
class AuditHttpTest {
  private static final String MICRO_TIME = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}Z";
  private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
  private static final String ADMIN = "\"user\":{\"username\":\"admin\",\"groups\":"
      + "[\"system:masters\",\"system:authenticated\"]},\"sourceIPs\":[\"127.0.0.1\"],"
      + "\"userAgent\":\"UA\"";
  private static final String ALLOWED = "\"annotations\":{\"authorization.k8s.io/decision\":"
      + "\"allow\",\"authorization.k8s.io/reason\":\"\"}";

  @TempDir
  static Path dir;
  static RecordingSink events = new RecordingSink();
  static AuditLogSink log;
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl admin;
  static Kubectl bob;
  static HttpClient client;

  /** Records an admission annotation on every configmap create, as a plugin may. */
  static final class Annotating implements ValidatingPlugin {
    @Override
    public String name() {
      return "Annotating";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
      if (a.resource().resource().equals("configmaps")) {
        a.auditAnnotations().add("audit.example.com/checked", a.operation().name());
      }
    }
  }

  @BeforeAll
  static void start() throws Exception {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    api = Reviews.install(ApiServer.builder().store(store)
        .admission(AdmissionChain.builder().add(new RbacEscalationCheck(rbac))
            .add(new Annotating()).build()), rbac)
        .build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    String ca = Files.readString(pki.caCert);
    log = AuditLogSink.builder(dir.resolve("logs/audit.log")).build();
    http = HttpApiServer.builder(api)
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
        .authenticator(Authenticators.bearerTokens(Map.of(
            "admin-token", UserInfo.of("admin", "system:masters"),
            "bob-token", UserInfo.of("bob"))))
        .authorizer(a -> {
          if (a.path().equals("/explode")) {
            throw new IllegalStateException("boom");
          }
          return rbac.authorize(a);
        })
        .auditor(Audit.of(AuditPolicy.parse(AuditPolicyTest.resource("levels.yaml")), events,
            log))
        .build();
    http.start();
    admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
        http.kubeconfig().certificateAuthority(ca).token("admin-token").build());
    bob = new Kubectl(Files.createDirectories(dir.resolve("bob")),
        http.kubeconfig().certificateAuthority(ca).token("bob-token").build());
    for (String ns : new String[] {"meta", "req", "full", "lean", "quiet"}) {
      admin.ok("create", "namespace", ns);
    }
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .sslContext(trusting(pki.caCert)).build();
  }

  @AfterAll
  static void stop() throws Exception {
    http.close();
    api.close();
    rbac.close();
    log.close();
  }

  static SSLContext trusting(Path caPem) throws Exception {
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    trust.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(
        new ByteArrayInputStream(Files.readAllBytes(caPem))));
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(
        TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, tmf.getTrustManagers(), null);
    return ctx;
  }

  static HttpResponse<String> send(String method, String path, String token, String body,
      String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(http.url() + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body))
        .header("User-Agent", "audit-test/1.0");
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    if (headers.length > 0) {
      b.headers(headers);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  static Predicate<AuditEvent> event(AuditStage stage, String verb, String uri) {
    return e -> e.stage() == stage && e.verb().equals(verb) && e.requestUri().equals(uri);
  }

  /** The event's JSON with its audit ID, user agent and timestamps checked and masked. */
  static String masked(AuditEvent e) {
    MapValue v = e.toValue();
    assertThat(Nested.str(v, "requestReceivedTimestamp")).matches(MICRO_TIME);
    assertThat(Nested.str(v, "stageTimestamp")).matches(MICRO_TIME);
    assertThat(e.stageTimestamp()).isAfterOrEqualTo(e.requestReceivedTimestamp());
    if (e.stage() == AuditStage.REQUEST_RECEIVED) {
      assertThat(e.stageTimestamp()).isEqualTo(e.requestReceivedTimestamp());
    }
    assertThat(e.userAgent()).matches("kubectl/v1\\.\\d+.*|audit-test/1\\.0");
    v = v.with("auditID", Value.of("ID")).with("requestReceivedTimestamp", Value.of("T"))
        .with("stageTimestamp", Value.of("T")).with("userAgent", Value.of("UA"));
    return Json.write(v);
  }

  static String head(String level, String stage, String uri, String verb) {
    return "{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"level\":\"" + level
        + "\",\"auditID\":\"ID\",\"stage\":\"" + stage + "\",\"requestURI\":\"" + uri
        + "\",\"verb\":\"" + verb + "\",";
  }

  static final String TIMES = "\"requestReceivedTimestamp\":\"T\",\"stageTimestamp\":\"T\"";

  @Test
  void metadataLevelGetIsAuditedWhenReceivedAndWhenComplete() throws Exception {
    admin.ok("-n", "meta", "create", "configmap", "one", "--from-literal=a=1");
    admin.ok("-n", "meta", "get", "configmap", "one", "-o", "name");
    String uri = "/api/v1/namespaces/meta/configmaps/one";
    AuditEvent complete = events.await(event(AuditStage.RESPONSE_COMPLETE, "get", uri));
    List<AuditEvent> all = events.of(complete.auditId());
    assertThat(all).extracting(AuditEvent::stage)
        .containsExactly(AuditStage.REQUEST_RECEIVED, AuditStage.RESPONSE_COMPLETE);
    assertThat(complete.auditId()).matches(UUID);
    String ref = "\"objectRef\":{\"resource\":\"configmaps\",\"namespace\":\"meta\","
        + "\"name\":\"one\",\"apiVersion\":\"v1\"},";
    assertThat(masked(all.get(0))).isEqualTo(head("Metadata", "RequestReceived", uri, "get")
        + ADMIN + "," + ref + TIMES + "}");
    assertThat(masked(complete)).isEqualTo(head("Metadata", "ResponseComplete", uri, "get")
        + ADMIN + "," + ref + "\"responseStatus\":{\"metadata\":{},\"code\":200}," + TIMES
        + "," + ALLOWED + "}");
    // the JSON log holds the same events, one per line
    List<String> lines = Files.readAllLines(dir.resolve("logs/audit.log"));
    assertThat(lines).contains(complete.toJsonLine().stripTrailing(),
        all.get(0).toJsonLine().stripTrailing());
  }

  @Test
  void requestLevelLogsTheCreatedObjectNamedInTheReferenceAndAdmissionAnnotations()
      throws Exception {
    admin.ok("-n", "req", "create", "configmap", "two", "--from-literal=a=1");
    AuditEvent e = events.await(x -> x.stage() == AuditStage.RESPONSE_COMPLETE
        && x.verb().equals("create") && x.requestUri().startsWith(
            "/api/v1/namespaces/req/configmaps?"));
    MapValue v = e.toValue();
    // kube names the object of a create from its body
    assertThat(Json.write(Nested.map(v, "objectRef"))).isEqualTo("{\"resource\":\"configmaps\","
        + "\"namespace\":\"req\",\"name\":\"two\",\"apiVersion\":\"v1\"}");
    assertThat(Json.write(Nested.map(v, "responseStatus")))
        .isEqualTo("{\"metadata\":{},\"code\":201}");
    assertThat(Nested.str(v, "requestObject", "kind")).isEqualTo("ConfigMap");
    assertThat(Nested.str(v, "requestObject", "metadata", "name")).isEqualTo("two");
    assertThat(Nested.str(v, "requestObject", "data", "a")).isEqualTo("1");
    assertThat(v.getOrNull("responseObject")).isNull();
    assertThat(Json.write(Nested.map(v, "annotations"))).isEqualTo(
        "{\"audit.example.com/checked\":\"CREATE\",\"authorization.k8s.io/decision\":\"allow\","
            + "\"authorization.k8s.io/reason\":\"\"}");
    assertThat(keys(v)).containsExactly("kind", "apiVersion", "level", "auditID", "stage",
        "requestURI", "verb", "user", "sourceIPs", "userAgent", "objectRef", "responseStatus",
        "requestObject", "requestReceivedTimestamp", "stageTimestamp", "annotations");
  }

  @Test
  void requestResponseLevelLogsBothBodiesAndRuleLevelOmitManagedFieldsDropsThem()
      throws Exception {
    admin.ok("-n", "full", "create", "configmap", "three", "--from-literal=a=1");
    admin.ok("-n", "lean", "create", "configmap", "three", "--from-literal=a=1");
    AuditEvent full = events.await(x -> x.stage() == AuditStage.RESPONSE_COMPLETE
        && x.verb().equals("create") && x.requestUri().startsWith(
            "/api/v1/namespaces/full/configmaps?"));
    AuditEvent lean = events.await(x -> x.stage() == AuditStage.RESPONSE_COMPLETE
        && x.verb().equals("create") && x.requestUri().startsWith(
            "/api/v1/namespaces/lean/configmaps?"));
    MapValue fullObject = (MapValue) full.responseObject().orElseThrow();
    assertThat(Nested.str(fullObject, "metadata", "uid")).isNotEmpty();
    assertThat(Nested.list(fullObject, "metadata", "managedFields")).hasSize(1);
    assertThat(Nested.str(Nested.list(fullObject, "metadata", "managedFields").get(0),
        "manager")).isEqualTo("kubectl-create");
    MapValue leanObject = (MapValue) lean.responseObject().orElseThrow();
    assertThat(Nested.str(leanObject, "metadata", "uid")).isNotEmpty();
    assertThat(Nested.map(leanObject, "metadata").getOrNull("managedFields")).isNull();
    // the stored object keeps them: only the event drops them
    assertThat(Nested.list(api.resources("v1", "configmaps").namespace("lean").get("three"),
        "metadata", "managedFields")).hasSize(1);

    // a body sent with managedFields loses them in the event too
    String update = Json.write(Nested.remove(Nested.remove(
        api.resources("v1", "configmaps").namespace("lean").get("three"),
        "metadata", "resourceVersion"), "metadata", "creationTimestamp"));
    assertThat(send("PUT", "/api/v1/namespaces/lean/configmaps/three", "admin-token", update)
        .statusCode()).isEqualTo(200);
    AuditEvent put = events.await(event(AuditStage.RESPONSE_COMPLETE, "update",
        "/api/v1/namespaces/lean/configmaps/three"));
    MapValue sent = (MapValue) put.requestObject().orElseThrow();
    assertThat(Nested.str(sent, "metadata", "uid")).isNotEmpty();
    assertThat(Nested.map(sent, "metadata").getOrNull("managedFields")).isNull();
    // kube completes the reference from the object sent
    assertThat(put.objectRef().orElseThrow().uid()).isEqualTo(Nested.str(sent, "metadata", "uid"));
  }

  @Test
  void aFailedRequestCarriesItsStatus() throws Exception {
    assertThat(admin.run("-n", "meta", "get", "configmap", "missing").exitCode()).isNotZero();
    AuditEvent e = events.await(event(AuditStage.RESPONSE_COMPLETE, "get",
        "/api/v1/namespaces/meta/configmaps/missing"));
    assertThat(Json.write(Nested.map(e.toValue(), "responseStatus"))).isEqualTo(
        "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"missing\\\" not"
            + " found\",\"reason\":\"NotFound\",\"details\":{\"name\":\"missing\","
            + "\"kind\":\"configmaps\"},\"code\":404}");
  }

  @Test
  void aForbiddenRequestIsAuditedAsTheAuthorizerDecided() throws Exception {
    assertThat(bob.run("-n", "meta", "get", "configmaps", "-o", "name").exitCode()).isNotZero();
    AuditEvent e = events.await(event(AuditStage.RESPONSE_COMPLETE, "list",
        "/api/v1/namespaces/meta/configmaps?limit=500").and(x -> x.user().name().equals("bob")));
    assertThat(masked(e)).isEqualTo(head("Metadata", "ResponseComplete",
        "/api/v1/namespaces/meta/configmaps?limit=500", "list")
        + "\"user\":{\"username\":\"bob\",\"groups\":[\"system:authenticated\"]},"
        + "\"sourceIPs\":[\"127.0.0.1\"],\"userAgent\":\"UA\",\"objectRef\":{\"resource\":"
        + "\"configmaps\",\"namespace\":\"meta\",\"apiVersion\":\"v1\"},\"responseStatus\":"
        + "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps is forbidden: User"
        + " \\\"bob\\\" cannot list resource \\\"configmaps\\\" in API group \\\"\\\" in the"
        + " namespace \\\"meta\\\"\",\"reason\":\"Forbidden\",\"details\":{\"kind\":"
        + "\"configmaps\"},\"code\":403}," + TIMES + ",\"annotations\":{"
        + "\"authorization.k8s.io/decision\":\"forbid\",\"authorization.k8s.io/reason\":\"\"}}");
  }

  @Test
  void anRbacAllowanceNamesItsBinding() throws Exception {
    admin.ok("create", "namespace", "open");
    admin.ok("-n", "open", "create", "rolebinding", "bob-view", "--clusterrole=view",
        "--user=bob");
    bob.ok("-n", "open", "get", "configmap", "one-for-bob", "--ignore-not-found");
    AuditEvent e = events.await(event(AuditStage.RESPONSE_COMPLETE, "get",
        "/api/v1/namespaces/open/configmaps/one-for-bob"));
    assertThat(e.annotations()).containsExactly(
        Map.entry("authorization.k8s.io/decision", "allow"),
        Map.entry("authorization.k8s.io/reason", "RBAC: allowed by RoleBinding"
            + " \"bob-view/open\" of ClusterRole \"view\" to User \"bob\""));
  }

  @Test
  void impersonationKeepsTheRequestorAndNamesWhomItRanAs() throws Exception {
    admin.run("-n", "meta", "get", "configmaps", "--as=carol", "--as-group=devs", "-o", "name");
    AuditEvent e = events.await(event(AuditStage.RESPONSE_COMPLETE, "list",
        "/api/v1/namespaces/meta/configmaps?limit=500")
        .and(x -> x.impersonatedUser().isPresent()));
    String json = masked(e);
    assertThat(json).startsWith(head("Metadata", "ResponseComplete",
        "/api/v1/namespaces/meta/configmaps?limit=500", "list") + ADMIN.replace(
            ",\"sourceIPs\"", ",\"impersonatedUser\":{\"username\":\"carol\",\"groups\":"
                + "[\"devs\",\"system:authenticated\"]},\"authenticationMetadata\":"
                // cluster-admin's "*" verbs include constrained impersonation's, tried first
                + "{\"impersonationConstraint\":\"impersonate:user-info\"},\"sourceIPs\""));
    // carol may not list: the decision is the impersonated user's
    assertThat(e.annotations()).containsEntry("authorization.k8s.io/decision", "forbid");
  }

  @Test
  void aWatchIsAuditedWhenItsResponseStartsAndWhenItEnds() throws Exception {
    String uri = "/api/v1/namespaces/meta/configmaps?watch=true&timeoutSeconds=1";
    HttpResponse<String> r = send("GET", uri, "admin-token", null);
    // Go's JSON escapes &, < and > in strings
    String uriJson = uri.replace("&", "\\u0026");
    assertThat(r.statusCode()).isEqualTo(200);
    String id = r.headers().firstValue("Audit-Id").orElseThrow();
    AuditEvent complete = events.await(event(AuditStage.RESPONSE_COMPLETE, "watch", uri)
        .and(x -> x.auditId().equals(id)));
    List<AuditEvent> all = events.of(id);
    assertThat(all).extracting(AuditEvent::stage).containsExactly(AuditStage.REQUEST_RECEIVED,
        AuditStage.RESPONSE_STARTED, AuditStage.RESPONSE_COMPLETE);
    String ref = "\"objectRef\":{\"resource\":\"configmaps\",\"namespace\":\"meta\","
        + "\"apiVersion\":\"v1\"},";
    String user = ADMIN;
    assertThat(masked(all.get(1))).isEqualTo(head("Metadata", "ResponseStarted", uriJson, "watch")
        + user + "," + ref + "\"responseStatus\":{\"metadata\":{},\"code\":200}," + TIMES
        + "," + ALLOWED + "}");
    assertThat(masked(all.get(2))).isEqualTo(head("Metadata", "ResponseComplete", uriJson, "watch")
        + user + "," + ref + "\"responseStatus\":{\"metadata\":{},\"code\":200}," + TIMES
        + "," + ALLOWED + "}");
  }

  @Test
  void aWatchOverWebSocketStartsWithTheUpgradeAndCompletesWhenTheStreamEnds() throws Exception {
    String uri = "/api/v1/namespaces/meta/configmaps?watch=true&timeoutSeconds=1";
    java.util.concurrent.CompletableFuture<Integer> closed =
        new java.util.concurrent.CompletableFuture<>();
    client.newWebSocketBuilder().header("Authorization", "Bearer admin-token")
        .header("Audit-ID", "websocket-watch")
        .buildAsync(URI.create(http.url().toString().replace("https:", "wss:") + uri),
            new java.net.http.WebSocket.Listener() {
              @Override
              public java.util.concurrent.CompletionStage<?> onClose(
                  java.net.http.WebSocket webSocket, int statusCode, String reason) {
                closed.complete(statusCode);
                return null;
              }

              @Override
              public void onError(java.net.http.WebSocket webSocket, Throwable error) {
                closed.completeExceptionally(error);
              }
            }).join();
    assertThat(closed.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(1000);
    AuditEvent complete = events.await(x -> x.auditId().equals("websocket-watch")
        && x.stage() == AuditStage.RESPONSE_COMPLETE);
    assertThat(events.of("websocket-watch")).extracting(AuditEvent::stage)
        .containsExactly(AuditStage.REQUEST_RECEIVED, AuditStage.RESPONSE_STARTED,
            AuditStage.RESPONSE_COMPLETE);
    // kube's audit writer records the hijacked connection's 101
    assertThat(Json.write(complete.responseStatus().orElseThrow()))
        .isEqualTo("{\"metadata\":{},\"code\":101}");
    assertThat(complete.verb()).isEqualTo("watch");
  }

  @Test
  void theAuditIdOfTheRequestIsKeptAndAnsweredAndOneIsMadeUpOtherwise() throws Exception {
    HttpResponse<String> named = send("GET", "/api/v1/namespaces/meta/configmaps/one",
        "admin-token", null, "Audit-ID", "my-audit-id");
    assertThat(named.headers().firstValue("Audit-Id")).hasValue("my-audit-id");
    AuditEvent e = events.await(x -> x.auditId().equals("my-audit-id")
        && x.stage() == AuditStage.RESPONSE_COMPLETE);
    assertThat(e.userAgent()).isEqualTo("audit-test/1.0");

    // a level-None request is not audited but still gets its ID
    HttpResponse<String> quiet = send("GET", "/api/v1/namespaces/quiet/configmaps",
        "admin-token", null);
    String quietId = quiet.headers().firstValue("Audit-Id").orElseThrow();
    assertThat(quietId).matches(UUID);
    HttpResponse<String> after = send("GET", "/api/v1/namespaces/meta/configmaps", "admin-token",
        null);
    events.await(x -> x.auditId().equals(after.headers().firstValue("Audit-Id").orElseThrow())
        && x.stage() == AuditStage.RESPONSE_COMPLETE);
    assertThat(events.of(quietId)).isEmpty();
  }

  @Test
  void aFailedAuthenticationIsAuditedByItsAnswerOnly() throws Exception {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/meta/configmaps", "wrong-token",
        null);
    assertThat(r.statusCode()).isEqualTo(401);
    String id = r.headers().firstValue("Audit-Id").orElseThrow();
    AuditEvent e = events.await(x -> x.auditId().equals(id));
    assertThat(masked(e)).isEqualTo(head("Metadata", "ResponseStarted",
        "/api/v1/namespaces/meta/configmaps", "list") + "\"user\":{},\"sourceIPs\":"
        + "[\"127.0.0.1\"],\"userAgent\":\"UA\",\"objectRef\":{\"resource\":\"configmaps\","
        + "\"namespace\":\"meta\",\"apiVersion\":\"v1\"},\"responseStatus\":{\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\","
        + "\"code\":401}," + TIMES + "}");
    // a later request's completion is recorded after: no other event of the failed one
    HttpResponse<String> later = send("GET", "/api/v1/namespaces/meta/configmaps",
        "admin-token", null);
    events.await(x -> x.auditId().equals(later.headers().firstValue("Audit-Id").orElseThrow())
        && x.stage() == AuditStage.RESPONSE_COMPLETE);
    assertThat(events.of(id)).hasSize(1);
  }

  @Test
  void anUnexpectedFailureIsAuditedAsAPanic() throws Exception {
    HttpResponse<String> r = send("GET", "/explode", "admin-token", null);
    assertThat(r.statusCode()).isEqualTo(500);
    String id = r.headers().firstValue("Audit-Id").orElseThrow();
    AuditEvent e = events.await(x -> x.auditId().equals(id) && x.stage() == AuditStage.PANIC);
    assertThat(events.of(id)).extracting(AuditEvent::stage)
        .containsExactly(AuditStage.REQUEST_RECEIVED, AuditStage.PANIC);
    assertThat(masked(e)).isEqualTo(head("Metadata", "Panic", "/explode", "get")
        + ADMIN + ",\"responseStatus\":{\"metadata\":{},\"status\":\"Failure\",\"message\":"
        + "\"APIServer panic'd: java.lang.IllegalStateException: boom\",\"reason\":"
        + "\"InternalError\",\"code\":500}," + TIMES + "}");
  }

  @Test
  void sourceIpsListForwardedAddressesBeforeThePeer() throws Exception {
    HttpResponse<String> r = send("GET", "/api/v1/namespaces/meta/configmaps/one", "admin-token",
        null, "X-Forwarded-For", "10.0.0.1, not-an-ip, 2001:db8:0:0:0:0:0:1",
        "X-Real-Ip", "10.0.0.1");
    String id = r.headers().firstValue("Audit-Id").orElseThrow();
    AuditEvent e = events.await(x -> x.auditId().equals(id)
        && x.stage() == AuditStage.RESPONSE_COMPLETE);
    assertThat(e.sourceIps()).containsExactly("10.0.0.1", "2001:db8::1", "127.0.0.1");
  }

  static List<String> keys(MapValue v) {
    return java.util.stream.IntStream.range(0, v.size()).mapToObj(v::keyAt).toList();
  }
}
