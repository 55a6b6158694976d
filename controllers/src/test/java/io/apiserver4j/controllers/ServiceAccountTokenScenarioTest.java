/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The serviceaccount-token controller on a server. Expected behaviour from kube's
 * tokens_controller.go and tokens_controller_test.go (a token Secret without token, namespace
 * or CA data is filled; one whose ServiceAccount is missing is deleted; a deleted
 * ServiceAccount's tokens are deleted; a deleted token is removed from its ServiceAccount's
 * {@code secrets}); the token's claims and header from pkg/serviceaccount/legacy.go and jwt.go
 * ({@code LegacyClaims}, {@code LegacyIssuer}, the key id as the SHA-256 of the PKIX key), its
 * signature checked here with the JDK against the RFC 7515 signing input.
 */
class ServiceAccountTokenScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource SECRETS =
      new GroupVersionResource("", "v1", "secrets");
  private static final GroupVersionResource ACCOUNTS =
      new GroupVersionResource("", "v1", "serviceaccounts");
  private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIBfake\n"
      + "-----END CERTIFICATE-----\n";
  private static KeyPair keys;

  @TempDir
  Path dir;
  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeAll
  static void generateKey() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    keys = g.generateKeyPair();
  }

  private void start(boolean withKey) throws IOException {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    ControllerManager.Builder b = ControllerManager.builder(api).clock(clock)
        .controllers("serviceaccount-token");
    if (withKey) {
      b.serviceAccountPrivateKeyFile(writeKey()).rootCaFile(write("ca.crt", CA));
    }
    controllers = b.start();
  }

  private Path writeKey() throws IOException {
    return write("sa.key", "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64,
        new byte[] {'\n'}).encodeToString(keys.getPrivate().getEncoded())
        + "\n-----END PRIVATE KEY-----\n");
  }

  private Path write(String name, String content) throws IOException {
    return Files.writeString(dir.resolve(name), content);
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    if (api != null) {
      api.close();
    }
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private ResourceClient secrets() {
    return api.resources(SECRETS).namespace("ns");
  }

  private ResourceClient accounts() {
    return api.resources(ACCOUNTS).namespace("ns");
  }

  private MapValue account(String name, String... secretNames) {
    StringBuilder refs = new StringBuilder();
    for (String s : secretNames) {
      refs.append(refs.length() == 0 ? "" : ",").append("{\"name\":\"").append(s)
          .append("\"}");
    }
    return accounts().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
        + "\"metadata\":{\"name\":\"" + name + "\"}"
        + (secretNames.length == 0 ? "" : ",\"secrets\":[" + refs + "]") + "}"));
  }

  private MapValue tokenSecret(String name, String account, String data) {
    return secrets().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
        + "{\"name\":\"" + name + "\",\"annotations\":{\"kubernetes.io/service-account.name\":"
        + "\"" + account + "\"}},\"type\":\"kubernetes.io/service-account-token\"" + data
        + "}"));
  }

  private static String decoded(MapValue secret, String key) {
    return new String(Base64.getDecoder().decode(Nested.str(secret, "data", key)),
        StandardCharsets.UTF_8);
  }

  private static MapValue part(String token, int index) {
    return (MapValue) Json.read(new String(Base64.getUrlDecoder().decode(
        token.split("\\.")[index]), StandardCharsets.UTF_8));
  }

  @Test
  void aTokenSecretIsFilledWithASignedLegacyTokenTheNamespaceAndTheCa() throws Exception {
    start(true);
    MapValue sa = account("build-robot");
    tokenSecret("build-robot-secret", "build-robot", "");
    idle();

    MapValue secret = secrets().get("build-robot-secret");
    assertThat(Meta.annotations(secret)).containsEntry("kubernetes.io/service-account.name",
        "build-robot").containsEntry("kubernetes.io/service-account.uid",
        Meta.metaString(sa, "uid"));
    assertThat(decoded(secret, "namespace")).isEqualTo("ns");
    assertThat(decoded(secret, "ca.crt")).isEqualTo(CA);

    String token = decoded(secret, "token");
    String[] parts = token.split("\\.");
    assertThat(parts).hasSize(3);
    String kid = Base64.getUrlEncoder().withoutPadding().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(keys.getPublic().getEncoded()));
    assertThat(new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8))
        .isEqualTo("{\"alg\":\"RS256\",\"kid\":\"" + kid + "\"}");
    // go-jose writes the merged claims as a Go map: keys sorted
    assertThat(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8))
        .isEqualTo("{\"iss\":\"kubernetes/serviceaccount\","
            + "\"kubernetes.io/serviceaccount/namespace\":\"ns\","
            + "\"kubernetes.io/serviceaccount/secret.name\":\"build-robot-secret\","
            + "\"kubernetes.io/serviceaccount/service-account.name\":\"build-robot\","
            + "\"kubernetes.io/serviceaccount/service-account.uid\":\""
            + Meta.metaString(sa, "uid") + "\","
            + "\"sub\":\"system:serviceaccount:ns:build-robot\"}");
    Signature rs256 = Signature.getInstance("SHA256withRSA");
    rs256.initVerify(keys.getPublic());
    rs256.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
    assertThat(rs256.verify(Base64.getUrlDecoder().decode(parts[2]))).as("RS256").isTrue();

    // filled once: a later sync leaves the token as it is
    String rv = Meta.metaString(secret, "resourceVersion");
    secrets().update(secret.with("metadata", Meta.metadata(secret).with("labels",
        Json.read("{\"touched\":\"yes\"}"))));
    idle();
    assertThat(decoded(secrets().get("build-robot-secret"), "token")).isEqualTo(token);
    assertThat(Meta.metaString(secrets().get("build-robot-secret"), "resourceVersion"))
        .isNotEqualTo(rv);
  }

  @Test
  void missingCaAndNamespaceAreAddedWithoutReplacingTheToken() throws IOException {
    start(true);
    account("robot");
    // kube's "added token secret with mismatched ca data" and "without namespace data"
    tokenSecret("t", "robot", ",\"data\":{\"token\":\"" + Base64.getEncoder().encodeToString(
        "ABC".getBytes(StandardCharsets.UTF_8)) + "\",\"ca.crt\":\"" + Base64.getEncoder()
        .encodeToString("other".getBytes(StandardCharsets.UTF_8)) + "\"}");
    idle();
    MapValue secret = secrets().get("t");
    assertThat(decoded(secret, "token")).isEqualTo("ABC");
    assertThat(decoded(secret, "ca.crt")).isEqualTo(CA);
    assertThat(decoded(secret, "namespace")).isEqualTo("ns");
  }

  @Test
  void aTokenOfAMissingServiceAccountIsDeleted() throws IOException {
    start(true);
    tokenSecret("orphan", "nobody", "");
    account("someone");
    tokenSecret("kept", "someone", "");
    idle();
    assertThat(secrets().list()).extracting(s -> Meta.metaString(s, "name"))
        .containsExactly("kept");
  }

  @Test
  void aDeletedServiceAccountTakesItsTokensAndADeletedTokenLeavesItsAccount()
      throws IOException {
    start(true);
    account("a", "a-token", "other");
    tokenSecret("a-token", "a", "");
    account("b");
    tokenSecret("b-token", "b", "");
    idle();

    secrets().delete("a-token");
    idle();
    // kube's "deleted token secret with serviceaccount": the reference goes, others stay
    assertThat(Nested.list(accounts().get("a"), "secrets")).containsExactly(
        Json.read("{\"name\":\"other\"}"));

    accounts().delete("b");
    idle();
    assertThat(secrets().list()).isEmpty();
  }

  @Test
  void withoutAPrivateKeyTheControllerDoesNothing() throws IOException {
    start(false);
    assertThat(controllers.controllers()).containsExactly("serviceaccount-token-controller");
    account("robot");
    tokenSecret("t", "robot", "");
    tokenSecret("orphan", "nobody", "");
    idle();
    assertThat(secrets().list()).hasSize(2);
    assertThat(Nested.has(secrets().get("t"), "data", "token")).isFalse();
  }

  @Test
  void anUnreadableKeyFailsTheStartInKubesWords() throws IOException {
    api = ApiServer.builder().bootstrap(false).clock(clock).build();
    Path bad = write("bad.key", "not a key");
    assertThatThrownBy(() -> ControllerManager.builder(api).clock(clock)
        .controllers("serviceaccount-token").serviceAccountPrivateKeyFile(bad).start())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("error reading key for service account token controller: ");
  }
}
