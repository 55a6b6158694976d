/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.auth.Bootstrap;
import io.apiserver4j.auth.RbacAuthorizer;
import io.apiserver4j.auth.RbacEscalationCheck;
import io.apiserver4j.auth.Reviews;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.authz.Authenticator;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.http.ManualClock;
import io.apiserver4j.http.TestCertificates;
import io.apiserver4j.http.TlsOptions;
import io.apiserver4j.storage.InMemoryStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ServiceAccount tokens through the real kubectl over TLS: {@code kubectl create token}, the
 * token used as a client's credentials under RBAC, and TokenReview. Expected claims follow
 * kube's documented token (kubernetes.io "Managing Service Accounts": sorted keys, {@code aud}
 * as a list, {@code kubernetes.io} private claim); expected errors are kube-apiserver's texts
 * ({@code TokenREST.Create}, {@code ValidateTokenRequest}, the bound-token validator, the
 * bearer-token authenticator's aggregate).
 */
class ServiceAccountTokensKubectlTest {
  private static final String ISSUER = "https://kubernetes.default.svc.cluster.local";
  @TempDir
  static Path dir;
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl admin;
  static ManualClock clock;
  static String kid;
  static final AtomicInteger IDS = new AtomicInteger();

  @BeforeAll
  static void start() throws Exception {
    Path key = dir.resolve("sa.key");
    Path pub = dir.resolve("sa.pub");
    openssl("genrsa", "-traditional", "-out", key.toString(), "2048");
    openssl("rsa", "-in", key.toString(), "-pubout", "-out", pub.toString());
    kid = keyIdOf(Files.readString(pub));

    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    clock = new ManualClock(Instant.ofEpochSecond(Instant.now().getEpochSecond()));
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store)
        .clock(clock)
        .signingKeyFile(key)
        .verificationKeyFile(pub)
        .idSource(() -> "jti-" + IDS.incrementAndGet())
        .build();
    Authenticator staticTokens = Authenticators.bearerTokens(Map.of(
        "admin-token", UserInfo.of("admin", "system:masters")));
    api = tokens.install(Reviews.install(ApiServer.builder().store(store)
        .admission(AdmissionChain.builder().add(new RbacEscalationCheck(rbac))
            .add(new DenyAudience()).build()), rbac),
        staticTokens).build();
    rbac.aggregateInto(api);
    Bootstrap.ensure(api);
    TestCertificates pki = TestCertificates.create(Files.createDirectories(dir.resolve("pki")));
    http = HttpApiServer.builder(api).nonResourceDocuments(tokens.discoveryDocuments())
        .tls(TlsOptions.of(pki.serverCert, pki.serverKey))
        .authenticator(Authenticators.firstOf(staticTokens, tokens.authenticator()))
        .authorizer(rbac)
        .build();
    http.start();
    admin = new Kubectl(Files.createDirectories(dir.resolve("admin")),
        http.kubeconfig().certificateAuthority(Files.readString(pki.caCert))
            .token("admin-token").build());
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    rbac.close();
  }

  @Test
  void createTokenReturnsAJwtWithKubesClaims() {
    admin.ok("create", "namespace", "claims");
    admin.ok("-n", "claims", "create", "serviceaccount", "robot");
    String uid = admin.ok("-n", "claims", "get", "sa", "robot", "-o", "jsonpath={.metadata.uid}");
    long before = clock.instant().getEpochSecond();
    String token = admin.ok("-n", "claims", "create", "token", "robot").trim();

    String[] parts = token.split("\\.");
    assertThat(parts).hasSize(3);
    assertThat(decode(parts[0])).isEqualTo("{\"alg\":\"RS256\",\"kid\":\"" + kid + "\"}");
    String payload = decode(parts[1]);
    long iat = Nested.integer(Json.read(payload), "iat");
    assertThat(iat).isEqualTo(before);
    String jti = Nested.str(Json.read(payload), "jti");
    assertThat(payload).isEqualTo("{\"aud\":[\"" + ISSUER + "\"],\"exp\":" + (iat + 3600)
        + ",\"iat\":" + iat + ",\"iss\":\"" + ISSUER + "\",\"jti\":\"" + jti + "\","
        + "\"kubernetes.io\":{\"namespace\":\"claims\",\"serviceaccount\":{\"name\":\"robot\","
        + "\"uid\":\"" + uid + "\"}},\"nbf\":" + iat + ",\"sub\":"
        + "\"system:serviceaccount:claims:robot\"}");

    String tenMinutes = admin.ok("-n", "claims", "create", "token", "robot", "--duration=10m",
        "--audience=vault", "--audience=api").trim();
    MapValue claims = (MapValue) Json.read(decode(tenMinutes.split("\\.")[1]));
    assertThat(Nested.integer(claims, "exp") - Nested.integer(claims, "iat")).isEqualTo(600);
    assertThat(Json.write(claims.getOrNull("aud"))).isEqualTo("[\"vault\",\"api\"]");
  }

  @Test
  void aTokenAuthenticatesItsServiceAccountUnderRbac() {
    admin.ok("create", "namespace", "rbac");
    admin.ok("-n", "rbac", "create", "serviceaccount", "reader");
    admin.ok("-n", "rbac", "create", "rolebinding", "reader-views", "--clusterrole=view",
        "--serviceaccount=rbac:reader");
    admin.ok("-n", "rbac", "create", "configmap", "settings", "--from-literal=a=1");
    String token = admin.ok("-n", "rbac", "create", "token", "reader").trim();

    assertThat(admin.ok("--token=" + token, "-n", "rbac", "get", "configmap", "settings", "-o",
        "jsonpath={.data.a}")).isEqualTo("1");
    Kubectl.Result denied = admin.run("--token=" + token, "-n", "rbac", "delete", "configmap",
        "settings");
    assertThat(denied.stderr()).contains("configmaps \"settings\" is forbidden: User"
        + " \"system:serviceaccount:rbac:reader\" cannot delete resource \"configmaps\" in API"
        + " group \"\" in the namespace \"rbac\"");
    assertThat(admin.ok("--token=" + token, "auth", "whoami", "-o",
        "jsonpath={.status.userInfo.groups}")).isEqualTo("[\"system:serviceaccounts\","
        + "\"system:serviceaccounts:rbac\",\"system:authenticated\"]");

    admin.ok("-n", "rbac", "delete", "serviceaccount", "reader");
    Kubectl.Result revoked = admin.run("--token=" + token, "-n", "rbac", "get", "configmaps");
    assertThat(revoked.exitCode()).isNotZero();
    assertThat(revoked.stderr()).contains("Unauthorized");
  }

  @Test
  void tokenReviewOfAValidTokenNamesTheUser() {
    admin.ok("create", "namespace", "review");
    admin.ok("-n", "review", "create", "serviceaccount", "app");
    String uid = admin.ok("-n", "review", "get", "sa", "app", "-o", "jsonpath={.metadata.uid}");
    String token = admin.ok("-n", "review", "create", "token", "app").trim();
    String jti = Nested.str(Json.read(decode(token.split("\\.")[1])), "jti");

    MapValue status = review(token);
    assertThat(Json.write(status)).isEqualTo("{\"authenticated\":true,\"user\":{\"username\":"
        + "\"system:serviceaccount:review:app\",\"uid\":\"" + uid + "\",\"groups\":["
        + "\"system:serviceaccounts\",\"system:serviceaccounts:review\",\"system:authenticated\"],"
        + "\"extra\":{\"authentication.kubernetes.io/credential-id\":[\"JTI=" + jti + "\"]}},"
        + "\"audiences\":[\"" + ISSUER + "\"]}");

    MapValue staticUser = review("admin-token");
    assertThat(Json.write(staticUser)).isEqualTo("{\"authenticated\":true,\"user\":{\"username\":"
        + "\"admin\",\"groups\":[\"system:masters\",\"system:authenticated\"]},\"audiences\":[\""
        + ISSUER + "\"]}");
    assertThat(Json.write(review("no-such-token"))).isEqualTo("{\"user\":{},\"error\":"
        + "\"invalid bearer token\"}");
  }

  @Test
  void tokenReviewRefusesAnExpiredToken() {
    admin.ok("create", "namespace", "expiry");
    admin.ok("-n", "expiry", "create", "serviceaccount", "app");
    String token = admin.ok("-n", "expiry", "create", "token", "app", "--duration=10m").trim();
    // go-jose allows a minute of clock skew past exp
    clock.advance(Duration.ofSeconds(600 + 60));
    assertThat(review(token).getOrNull("authenticated")).isNotNull();
    clock.advance(Duration.ofSeconds(1));
    assertThat(Json.write(review(token))).isEqualTo("{\"user\":{},\"error\":\"[invalid bearer"
        + " token, service account token has expired]\"}");
    Kubectl.Result refused = admin.run("--token=" + token, "auth", "whoami");
    assertThat(refused.stderr()).contains("Unauthorized");
  }

  @Test
  void audiencesMustIntersect() throws Exception {
    admin.ok("create", "namespace", "aud");
    admin.ok("-n", "aud", "create", "serviceaccount", "app");
    String vault = admin.ok("-n", "aud", "create", "token", "app", "--audience=vault").trim();

    assertThat(Nested.str(review(vault), "error")).isEqualTo("[invalid bearer token, token"
        + " audiences [\"vault\"] is invalid for the target audiences [\"" + ISSUER + "\"]]");
    MapValue forVault = review(vault, "vault", "other");
    assertThat(Nested.bool(forVault, "authenticated")).isTrue();
    assertThat(Json.write(forVault.getOrNull("audiences"))).isEqualTo("[\"vault\"]");
    // a static token knows only the API's audiences
    assertThat(Json.write(review("admin-token", "vault"))).isEqualTo("{\"user\":{},\"error\":"
        + "\"invalid bearer token\"}");
    assertThat(admin.run("--token=" + vault, "auth", "whoami").stderr())
        .contains("Unauthorized");
  }

  @Test
  void deletingOrRecreatingTheServiceAccountRevokesItsTokens() {
    admin.ok("create", "namespace", "gone");
    admin.ok("-n", "gone", "create", "serviceaccount", "app");
    String oldUid = admin.ok("-n", "gone", "get", "sa", "app", "-o",
        "jsonpath={.metadata.uid}");
    String token = admin.ok("-n", "gone", "create", "token", "app").trim();
    admin.ok("-n", "gone", "delete", "serviceaccount", "app");
    assertThat(Nested.str(review(token), "error")).isEqualTo("[invalid bearer token,"
        + " serviceaccounts \"app\" not found]");

    admin.ok("-n", "gone", "create", "serviceaccount", "app");
    String newUid = admin.ok("-n", "gone", "get", "sa", "app", "-o",
        "jsonpath={.metadata.uid}");
    assertThat(Nested.str(review(token), "error")).isEqualTo("[invalid bearer token, service"
        + " account UID (" + newUid + ") does not match claim (" + oldUid + ")]");
  }

  @Test
  void aPodBoundTokenCarriesThePodAndDiesWithIt() {
    admin.ok("create", "namespace", "bound");
    admin.ok("-n", "bound", "create", "serviceaccount", "app");
    admin.file("pod.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: worker, namespace: bound}
        spec:
          serviceAccountName: app
          containers: [{name: c, image: busybox}]
        """);
    admin.ok("apply", "-f", admin.dir().resolve("pod.yaml").toString());
    String podUid = admin.ok("-n", "bound", "get", "pod", "worker", "-o",
        "jsonpath={.metadata.uid}");
    String saUid = admin.ok("-n", "bound", "get", "sa", "app", "-o", "jsonpath={.metadata.uid}");
    String token = admin.ok("-n", "bound", "create", "token", "app", "--bound-object-kind=Pod",
        "--bound-object-name=worker").trim();

    MapValue claims = (MapValue) Json.read(decode(token.split("\\.")[1]));
    assertThat(Json.write(claims.getOrNull("kubernetes.io"))).isEqualTo("{\"namespace\":"
        + "\"bound\",\"pod\":{\"name\":\"worker\",\"uid\":\"" + podUid + "\"},"
        + "\"serviceaccount\":{\"name\":\"app\",\"uid\":\"" + saUid + "\"}}");
    MapValue extra = Nested.map(review(token), "user", "extra");
    assertThat(Json.write(extra)).isEqualTo("{\"authentication.kubernetes.io/credential-id\":"
        + "[\"JTI=" + Nested.str(claims, "jti") + "\"],\"authentication.kubernetes.io/pod-name\":"
        + "[\"worker\"],\"authentication.kubernetes.io/pod-uid\":[\"" + podUid + "\"]}");

    admin.ok("-n", "bound", "delete", "pod", "worker", "--wait=false");
    admin.ok("-n", "bound", "wait", "--for=delete", "pod/worker", "--timeout=30s");
    assertThat(Nested.str(review(token), "error")).isEqualTo("[invalid bearer token, service"
        + " account token has been invalidated]");
  }

  @Test
  void badTokenRequestsAreRefusedAsKubeRefusesThem() {
    admin.ok("create", "namespace", "bad");
    admin.ok("-n", "bad", "create", "serviceaccount", "app");
    admin.ok("-n", "bad", "create", "serviceaccount", "other");
    admin.ok("-n", "bad", "create", "secret", "generic", "s", "--from-literal=a=1");

    assertThat(admin.run("-n", "bad", "create", "token", "app", "--duration=1m").stderr())
        .contains("error: failed to create token: TokenRequest.authentication.k8s.io \"\" is"
            + " invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration"
            + " less than 10 minutes");
    assertThat(admin.run("-n", "bad", "create", "token", "nobody").stderr())
        .contains("error: failed to create token: serviceaccounts \"nobody\" not found");
    assertThat(admin.run("-n", "bad", "create", "token", "app", "--bound-object-kind=Pod",
        "--bound-object-name=missing").stderr())
        .contains("error: failed to create token: pods \"missing\" not found");
    assertThat(admin.run("-n", "bad", "create", "token", "app", "--bound-object-kind=Secret",
        "--bound-object-name=s", "--bound-object-uid=not-the-uid").stderr())
        .contains("error: failed to create token: Operation cannot be fulfilled on Secret"
            + " \"s\": the UID in the bound object reference (not-the-uid) does not match the"
            + " UID in record. The object might have been deleted and then recreated");
    admin.file("pod-other.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: other-pod, namespace: bad}
        spec:
          serviceAccountName: other
          containers: [{name: c, image: busybox}]
        """);
    admin.ok("apply", "-f", admin.dir().resolve("pod-other.yaml").toString());
    assertThat(admin.run("-n", "bad", "create", "token", "app", "--bound-object-kind=Pod",
        "--bound-object-name=other-pod").stderr())
        .contains("error: failed to create token: cannot bind token for serviceaccount \"app\""
            + " to pod running with different serviceaccount name.");
  }

  @Test
  void nodeInformationAndNodeBindingFollowKube() {
    admin.ok("create", "namespace", "nodes");
    admin.ok("-n", "nodes", "create", "serviceaccount", "kubelet-ish");
    admin.file("node.yaml", """
        apiVersion: v1
        kind: Node
        metadata: {name: worker-1}
        """);
    admin.ok("apply", "-f", admin.dir().resolve("node.yaml").toString());
    String nodeUid = admin.ok("get", "node", "worker-1", "-o", "jsonpath={.metadata.uid}");
    admin.file("scheduled.yaml", """
        apiVersion: v1
        kind: Pod
        metadata: {name: scheduled, namespace: nodes}
        spec:
          serviceAccountName: kubelet-ish
          nodeName: worker-1
          containers: [{name: c, image: busybox}]
        """);
    admin.ok("apply", "-f", admin.dir().resolve("scheduled.yaml").toString());
    String podUid = admin.ok("-n", "nodes", "get", "pod", "scheduled", "-o",
        "jsonpath={.metadata.uid}");
    String saUid = admin.ok("-n", "nodes", "get", "sa", "kubelet-ish", "-o",
        "jsonpath={.metadata.uid}");

    // kubelet's projected tokens ask for 3607 seconds: kube signs a year and warns after 3607
    MapValue projected = tokenRequest("nodes", "kubelet-ish", """
        {"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{
         "expirationSeconds":3607,"boundObjectRef":{"apiVersion":"v1","kind":"Pod",
         "name":"scheduled","uid":"%s"}}}""".formatted(podUid));
    MapValue claims = claimsOf(projected);
    long iat = Nested.integer(claims, "iat");
    assertThat(Nested.integer(claims, "exp") - iat).isEqualTo(365L * 24 * 3600);
    assertThat(Json.write(claims.getOrNull("kubernetes.io"))).isEqualTo("{\"namespace\":"
        + "\"nodes\",\"node\":{\"name\":\"worker-1\",\"uid\":\"" + nodeUid + "\"},\"pod\":"
        + "{\"name\":\"scheduled\",\"uid\":\"" + podUid + "\"},\"serviceaccount\":{\"name\":"
        + "\"kubelet-ish\",\"uid\":\"" + saUid + "\"},\"warnafter\":" + (iat + 3607) + "}");
    assertThat(Nested.str(projected, "status", "expirationTimestamp")).isEqualTo(
        io.apiserver4j.core.Meta.formatTime(Instant.ofEpochSecond(iat + 3607)));
    assertThat(Json.write(Nested.map(review(Nested.str(projected, "status", "token")), "user",
        "extra"))).isEqualTo("{\"authentication.kubernetes.io/credential-id\":[\"JTI="
        + Nested.str(claims, "jti") + "\"],\"authentication.kubernetes.io/node-name\":"
        + "[\"worker-1\"],\"authentication.kubernetes.io/node-uid\":[\"" + nodeUid + "\"],"
        + "\"authentication.kubernetes.io/pod-name\":[\"scheduled\"],"
        + "\"authentication.kubernetes.io/pod-uid\":[\"" + podUid + "\"]}");

    MapValue nodeBound = tokenRequest("nodes", "kubelet-ish", """
        {"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{
         "audiences":["agent"],"boundObjectRef":{"apiVersion":"v1","kind":"Node",
         "name":"worker-1"}}}""");
    assertThat(Json.write(nodeBound.getOrNull("spec"))).isEqualTo("{\"audiences\":[\"agent\"],"
        + "\"expirationSeconds\":3600,\"boundObjectRef\":{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Node\",\"name\":\"worker-1\"}}");
    String token = Nested.str(nodeBound, "status", "token");
    assertThat(Json.write(claimsOf(nodeBound).getOrNull("kubernetes.io"))).isEqualTo(
        "{\"namespace\":\"nodes\",\"node\":{\"name\":\"worker-1\",\"uid\":\"" + nodeUid
        + "\"},\"serviceaccount\":{\"name\":\"kubelet-ish\",\"uid\":\"" + saUid + "\"}}");
    assertThat(Nested.bool(review(token, "agent"), "authenticated")).isTrue();
    admin.ok("delete", "node", "worker-1");
    assertThat(Nested.str(review(token, "agent"), "error")).isEqualTo("[invalid bearer token,"
        + " service account token has been invalidated]");
  }

  @Test
  void issuerDiscoveryServesTheSigningKeys() throws Exception {
    admin.ok("create", "namespace", "oidc");
    admin.ok("-n", "oidc", "create", "serviceaccount", "app");
    String token = admin.ok("-n", "oidc", "create", "token", "app").trim();
    // served to service accounts through kube's bootstrap role
    MapValue config = (MapValue) Json.read(admin.ok("--token=" + token, "get", "--raw",
        "/.well-known/openid-configuration"));
    assertThat(Json.write(config)).isEqualTo("{\"issuer\":\"" + ISSUER + "\",\"jwks_uri\":"
        + "\"https://127.0.0.1:" + http.port() + "/openid/v1/jwks\",\"response_types_supported\":"
        + "[\"id_token\"],\"subject_types_supported\":[\"public\"],"
        + "\"id_token_signing_alg_values_supported\":[\"RS256\"]}");
    MapValue jwks = (MapValue) Json.read(admin.ok("--token=" + token, "get", "--raw",
        "/openid/v1/jwks"));
    MapValue key = (MapValue) Nested.list(jwks, "keys").get(0);
    assertThat(Nested.list(jwks, "keys")).hasSize(1);
    assertThat(key.keyAt(0)).isEqualTo("use");
    assertThat(Nested.str(key, "kty")).isEqualTo("RSA");
    assertThat(Nested.str(key, "kid")).isEqualTo(kid);
    assertThat(Nested.str(key, "alg")).isEqualTo("RS256");
    assertThat(Nested.str(key, "e")).isEqualTo("AQAB");
    // the modulus as openssl prints it
    Path modulus = dir.resolve("modulus.txt");
    openssl("rsa", "-pubin", "-in", dir.resolve("sa.pub").toString(), "-noout", "-modulus",
        "-out", modulus.toString());
    String hex = Files.readString(modulus).trim().replace("Modulus=", "");
    assertThat(new java.math.BigInteger(1, Base64.getUrlDecoder().decode(Nested.str(key, "n")))
        .toString(16)).isEqualToIgnoringCase(hex.replaceFirst("^0+", ""));
  }

  @Test
  void theTokenSubresourceOnlyCreates() {
    Kubectl.Result get = admin.run("get", "--raw",
        "/api/v1/namespaces/default/serviceaccounts/default/token");
    assertThat(get.stderr()).contains("MethodNotAllowed");
    Kubectl.Result statusPost = admin.run("create", "--raw",
        "/api/v1/namespaces/default/pods/x/status", "-f",
        admin.file("empty.json", "{}").toString());
    assertThat(statusPost.stderr()).contains("MethodNotAllowed");
  }

  private static MapValue tokenRequest(String namespace, String sa, String body) {
    Path f = admin.file("tr-" + IDS.incrementAndGet() + ".json", body);
    return (MapValue) Json.read(admin.ok("create", "--raw", "/api/v1/namespaces/" + namespace
        + "/serviceaccounts/" + sa + "/token", "-f", f.toString()));
  }

  private static MapValue claimsOf(MapValue tokenRequest) {
    return (MapValue) Json.read(decode(Nested.str(tokenRequest, "status", "token")
        .split("\\.")[1]));
  }

  @Test
  void admissionSeesTheTokenRequest() {
    admin.ok("create", "namespace", "admit");
    admin.ok("-n", "admit", "create", "serviceaccount", "app");
    Kubectl.Result denied = admin.run("-n", "admit", "create", "token", "app",
        "--audience=denied");
    assertThat(denied.stderr()).contains("error: failed to create token:")
        .contains("audience \"denied\" refused");
    AdmissionAttributes seen = DenyAudience.SEEN.get();
    assertThat(seen.resource().resource()).isEqualTo("serviceaccounts");
    assertThat(seen.subresource()).isEqualTo("token");
    assertThat(seen.kind().kind()).isEqualTo("TokenRequest");
    assertThat(seen.namespace()).isEqualTo("admit");
    assertThat(seen.name()).isEqualTo("app");
    assertThat(Nested.str(seen.object().orElseThrow(), "metadata", "name")).isEqualTo("app");
  }

  /** Refuses TokenRequests for the audience "denied", remembering what it saw. */
  static final class DenyAudience implements ValidatingPlugin {
    static final AtomicReference<AdmissionAttributes> SEEN = new AtomicReference<>();

    @Override
    public String name() {
      return "DenyAudience";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public boolean handles(AdmissionAttributes a) {
      return a.subresource().equals("token");
    }

    @Override
    public void validate(AdmissionAttributes a) {
      if (Nested.list(a.object().orElseThrow(), "spec", "audiences").contains(
          io.apiserver4j.core.Value.of("denied"))) {
        SEEN.set(a);
        throw AdmissionErrors.forbidden(a, "audience \"denied\" refused");
      }
    }
  }

  /** POSTs a TokenReview and returns its status. */
  private static MapValue review(String token, String... audiences) {
    StringBuilder body = new StringBuilder("{\"apiVersion\":\"authentication.k8s.io/v1\","
        + "\"kind\":\"TokenReview\",\"spec\":{\"token\":" + Json.quote(token));
    if (audiences.length > 0) {
      body.append(",\"audiences\":[");
      for (int i = 0; i < audiences.length; i++) {
        body.append(i == 0 ? "" : ",").append(Json.quote(audiences[i]));
      }
      body.append(']');
    }
    body.append("}}");
    Path f = admin.file("review-" + IDS.incrementAndGet() + ".json", body.toString());
    String out = admin.ok("create", "--raw", "/apis/authentication.k8s.io/v1/tokenreviews",
        "-f", f.toString());
    return Nested.map(Json.read(out), "status");
  }

  private static String decode(String part) {
    return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
  }

  /** kube's key id computed from the PEM public key: base64url(SHA-256(SubjectPublicKeyInfo)). */
  static String keyIdOf(String publicKeyPem) throws Exception {
    String b64 = publicKeyPem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    byte[] spki = Base64.getDecoder().decode(b64);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(spki));
  }

  static void openssl(String... args) throws Exception {
    String[] cmd = new String[args.length + 1];
    cmd[0] = "openssl";
    System.arraycopy(args, 0, cmd, 1, args.length);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor()).as("openssl %s: %s", String.join(" ", args), out).isZero();
  }
}
