/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import static io.apiserver4j.auth.tokens.ServiceAccountTokensKubectlTest.openssl;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.authz.AuthenticationRequest;
import io.apiserver4j.authz.AuthenticationResult;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.ManualClock;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ObjectKey;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys as kube-apiserver reads its {@code --service-account-*} files, and the checks of the
 * bearer authenticator, in process. Keys are made by openssl, so their reading is checked
 * against another implementation; expected texts are kube's (jwt.go, claims.go, the flag
 * validation).
 */
class ServiceAccountTokensTest {
  private static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");
  @TempDir
  Path dir;
  InMemoryStore store;
  ManualClock clock;

  @BeforeEach
  void setUp() {
    store = InMemoryStore.create();
    clock = new ManualClock(T0);
    store.create(ObjectKey.namespaced("", "serviceaccounts", "ns", "app"), (MapValue) Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"app\","
            + "\"namespace\":\"ns\",\"uid\":\"sa-uid\"}}"));
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void aPkcs8SigningKeyAndACertificateAsVerificationKeyWork() throws Exception {
    Path key = dir.resolve("pkcs8.key");
    Path cert = dir.resolve("sa.crt");
    openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out",
        key.toString());
    openssl("req", "-x509", "-new", "-key", key.toString(), "-subj", "/CN=sa", "-days", "1",
        "-out", cert.toString());
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store).clock(clock)
        .signingKeyFile(key).verificationKeyFile(cert).build();
    String token = issue(tokens);
    assertThat(authenticate(tokens, token)).isInstanceOf(AuthenticationResult.Authenticated.class);
    assertThat(((AuthenticationResult.Authenticated) authenticate(tokens, token)).user().name())
        .isEqualTo("system:serviceaccount:ns:app");
  }

  @Test
  void anEcPublicKeyVerifiesEs256Tokens() throws Exception {
    Path ecKey = dir.resolve("ec.key");
    Path ecPkcs8 = dir.resolve("ec-pkcs8.key");
    Path ecPub = dir.resolve("ec.pub");
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", ecKey.toString());
    openssl("pkcs8", "-topk8", "-nocrypt", "-in", ecKey.toString(), "-out", ecPkcs8.toString());
    openssl("ec", "-in", ecKey.toString(), "-pubout", "-out", ecPub.toString());
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store).clock(clock)
        .verificationKeyFile(ecPub).build();
    String kid = ServiceAccountTokensKubectlTest.keyIdOf(Files.readString(ecPub));
    String header = "{\"alg\":\"ES256\",\"kid\":\"" + kid + "\"}";
    String payload = "{\"aud\":[\"https://kubernetes.default.svc.cluster.local\"],\"exp\":"
        + (T0.getEpochSecond() + 600) + ",\"iat\":" + T0.getEpochSecond() + ",\"iss\":"
        + "\"https://kubernetes.default.svc.cluster.local\",\"kubernetes.io\":{\"namespace\":"
        + "\"ns\",\"serviceaccount\":{\"name\":\"app\",\"uid\":\"sa-uid\"}},\"nbf\":"
        + T0.getEpochSecond() + ",\"sub\":\"system:serviceaccount:ns:app\"}";
    String input = b64(header) + "." + b64(payload);
    Signature es = Signature.getInstance("SHA256withECDSAinP1363Format");
    es.initSign(ecPrivate(ecPkcs8));
    es.update(input.getBytes(StandardCharsets.US_ASCII));
    String token = input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(es.sign());

    AuthenticationResult r = authenticate(tokens, token);
    assertThat(r).isInstanceOf(AuthenticationResult.Authenticated.class);
    // no jti: no credential id
    assertThat(((AuthenticationResult.Authenticated) r).user().extra()).isEmpty();
    assertThat(Json.write(tokens.jwks())).contains("\"kty\":\"EC\",\"kid\":\"" + kid
        + "\",\"crv\":\"P-256\",\"alg\":\"ES256\"");

    String tampered = b64(header) + "." + b64(payload.replace("\"app\"", "\"admin\"")) + "."
        + token.split("\\.")[2];
    assertThat(authenticate(tokens, tampered)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]"));
  }

  @Test
  void tokensOfOtherKeysAndIssuersAreToldApart() {
    ServiceAccountTokens ours = ServiceAccountTokens.builder(store).clock(clock).build();
    ServiceAccountTokens otherKey = ServiceAccountTokens.builder(store).clock(clock).build();
    ServiceAccountTokens otherIssuer = ServiceAccountTokens.builder(store).clock(clock)
        .issuer("https://elsewhere.example").build();
    assertThat(authenticate(ours, issue(otherKey))).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, invalid signature, no keys found]"));
    // another issuer's JWT and a static token are left to the other authenticators
    assertThat(authenticate(ours, issue(otherIssuer))).isEqualTo(
        AuthenticationResult.noCredentials());
    assertThat(authenticate(ours, "static-token")).isEqualTo(AuthenticationResult.noCredentials());

    ServiceAccountTokens both = ServiceAccountTokens.builder(store).clock(clock)
        .issuer("https://new.example", "https://kubernetes.default.svc.cluster.local").build();
    String newToken = issue(both);
    assertThat(claims(newToken).getOrNull("iss")).isEqualTo(Value.of("https://new.example"));
    assertThat(authenticate(both, newToken)).isInstanceOf(
        AuthenticationResult.Authenticated.class);
  }

  /** A legacy token as kube-controller-manager's tokens controller writes it, signed by us. */
  private static String legacyToken(java.security.KeyPair pair, String secretName, String uid)
      throws Exception {
    String kid = Base64.getUrlEncoder().withoutPadding().encodeToString(
        java.security.MessageDigest.getInstance("SHA-256").digest(
            pair.getPublic().getEncoded()));
    String header = "{\"alg\":\"RS256\",\"kid\":\"" + kid + "\"}";
    String payload = "{\"iss\":\"kubernetes/serviceaccount\","
        + "\"kubernetes.io/serviceaccount/namespace\":\"ns\","
        + "\"kubernetes.io/serviceaccount/secret.name\":\"" + secretName + "\","
        + "\"kubernetes.io/serviceaccount/service-account.name\":\"app\","
        + "\"kubernetes.io/serviceaccount/service-account.uid\":\"" + uid + "\","
        + "\"sub\":\"system:serviceaccount:ns:app\"}";
    String input = b64(header) + "." + b64(payload);
    Signature rs = Signature.getInstance("SHA256withRSA");
    rs.initSign(pair.getPrivate());
    rs.update(input.getBytes(StandardCharsets.US_ASCII));
    return input + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rs.sign());
  }

  private void tokenSecret(String name, String token, String labels) {
    ObjectKey key = ObjectKey.namespaced("", "secrets", "ns", name);
    if (store.get(key).isPresent()) {
      store.delete(key, io.apiserver4j.storage.Preconditions.none());
    }
    store.create(key, (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\",\"uid\":\"s-uid\""
        + labels + "},\"type\":\"kubernetes.io/service-account-token\",\"data\":{\"token\":\""
        + Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)) + "\"}}"));
  }

  @Test
  void legacySecretTokensAreAcceptedWhileTheirSecretAndServiceAccountAreAsTheySay()
      throws Exception {
    java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    java.security.KeyPair pair = g.generateKeyPair();
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store).clock(clock)
        .signingKey(pair.getPrivate()).build();
    String token = legacyToken(pair, "app-token", "sa-uid");

    // kube's legacy validator, its texts (pkg/serviceaccount/legacy.go)
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, Token has been invalidated]"));
    tokenSecret("app-token", "another", "");
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, Token does not match server's copy]"));
    tokenSecret("app-token", token, "");
    AuthenticationResult ok = authenticate(tokens, token);
    assertThat(ok).isInstanceOf(AuthenticationResult.Authenticated.class);
    assertThat(((AuthenticationResult.Authenticated) ok).user()).isEqualTo(
        new io.apiserver4j.admission.UserInfo("system:serviceaccount:ns:app", "sa-uid",
            List.of("system:serviceaccounts", "system:serviceaccounts:ns"), Map.of()));

    String otherUid = legacyToken(pair, "app-token-2", "old-uid");
    tokenSecret("app-token-2", otherUid, "");
    assertThat(authenticate(tokens, otherUid)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, ServiceAccount UID (sa-uid) does not match claim (old-uid)]"));

    tokenSecret("app-token", token,
        ",\"labels\":{\"kubernetes.io/legacy-token-invalid-since\":\"2026-01-01\"}");
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, the token in secret ns/app-token for service account ns/app"
            + " has been marked invalid. Use tokens from the TokenRequest API or manually"
            + " created secret-based tokens, or remove the"
            + " 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily"
            + " allow use of this token]"));

    tokenSecret("app-token", token, "");
    store.delete(ObjectKey.namespaced("", "serviceaccounts", "ns", "app"),
        io.apiserver4j.storage.Preconditions.none());
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, serviceaccounts \"app\" not found]"));
  }

  @Test
  void timesAreCheckedWithGoJosesMinuteOfLeeway() {
    ServiceAccountTokens tokens = ServiceAccountTokens.builder(store).clock(clock).build();
    String token = issue(tokens);
    clock.advance(Duration.ofSeconds(-61));
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, service account token is not valid yet]"));
    clock.advance(Duration.ofSeconds(1));
    assertThat(authenticate(tokens, token)).isInstanceOf(
        AuthenticationResult.Authenticated.class);
    clock.advance(Duration.ofSeconds(60 + 3600 + 60));
    assertThat(authenticate(tokens, token)).isInstanceOf(
        AuthenticationResult.Authenticated.class);
    clock.advance(Duration.ofSeconds(1));
    assertThat(authenticate(tokens, token)).isEqualTo(AuthenticationResult.rejected(
        "[invalid bearer token, service account token has expired]"));
  }

  @Test
  void badOptionsFailAtOnceNamingThem() throws Exception {
    Path ecKey = dir.resolve("ec-signing.key");
    openssl("ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", ecKey.toString());
    assertThatThrownBy(() -> ServiceAccountTokens.builder(store).signingKeyFile(ecKey))
        .hasMessage("the service account signing key must be an RSA key, not EC");
    Path empty = Files.writeString(dir.resolve("empty.pem"), "no keys here\n");
    assertThatThrownBy(() -> ServiceAccountTokens.builder(store).signingKeyFile(empty))
        .hasMessageContaining(empty + ": no private key found");
    assertThatThrownBy(() -> ServiceAccountTokens.builder(store).verificationKeyFile(empty))
        .hasMessage(empty + ": no public key found");
    assertThatThrownBy(() -> ServiceAccountTokens.builder(store).issuer("a", "a"))
        .hasMessage("service-account-issuer \"a\" is already specified");
    assertThatThrownBy(() -> ServiceAccountTokens.builder(store).issuer(""))
        .hasMessage("service-account-issuer should not be an empty string");
  }

  private static String issue(ServiceAccountTokens tokens) {
    return Nested.str(new TokenRequests(tokens).create("ns", "app", MapValue.empty(), o -> { }), "status",
        "token");
  }

  private static MapValue claims(String token) {
    return (MapValue) Json.read(new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]),
        StandardCharsets.UTF_8));
  }

  private static AuthenticationResult authenticate(ServiceAccountTokens tokens, String token) {
    return tokens.authenticator().authenticate(new AuthenticationRequest(
        Map.of("Authorization", List.of("Bearer " + token)), List.of(),
        new InetSocketAddress(0)));
  }

  private static String b64(String s) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(
        s.getBytes(StandardCharsets.UTF_8));
  }

  private static PrivateKey ecPrivate(Path pkcs8Pem) throws Exception {
    String b64 = Files.readString(pkcs8Pem).replaceAll("-----[A-Z ]+-----", "")
        .replaceAll("\\s", "");
    return KeyFactory.getInstance("EC").generatePrivate(
        new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64)));
  }
}
