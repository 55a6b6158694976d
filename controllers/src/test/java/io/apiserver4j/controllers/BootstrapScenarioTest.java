/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * bootstrapsigner and tokencleaner on a server, on the test clock. Expected behaviour from kube's
 * bootstrapsigner_test.go (a signing token's signature added, a correct one left alone, a stale
 * one replaced, one of a token gone removed) and tokencleaner_test.go (an expired token deleted,
 * a live one kept until it expires); the signatures computed here from RFC 7515 (HS256 over
 * {@code base64url(header).base64url(kubeconfig)}, payload detached).
 */
class BootstrapScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource SECRETS =
      new GroupVersionResource("", "v1", "secrets");
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String KUBECONFIG = "apiVersion: v1\nkind: Config\nclusters:\n"
      + "- cluster:\n    server: https://10.0.0.1:6443\n  name: \"\"\n";

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock).build();
    for (String ns : new String[] {"kube-system", "kube-public"}) {
      api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
          + "\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
    }
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("bootstrapsigner,tokencleaner").start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private ResourceClient secrets() {
    return api.resources(SECRETS).namespace("kube-system");
  }

  private ResourceClient configMaps() {
    return api.resources(CONFIG_MAPS).namespace("kube-public");
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private void token(String id, String secret, String expiration, boolean signing) {
    secrets().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":"
        + "{\"name\":\"bootstrap-token-" + id + "\"},\"type\":\"bootstrap.kubernetes.io/token\","
        + "\"data\":{\"token-id\":\"" + b64(id) + "\",\"token-secret\":\"" + b64(secret) + "\""
        + (expiration.isEmpty() ? "" : ",\"expiration\":\"" + b64(expiration) + "\"")
        + (signing ? ",\"usage-bootstrap-signing\":\"" + b64("true") + "\"" : "") + "}}"));
  }

  private void clusterInfo(String extraData) {
    configMaps().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"cluster-info\"},\"data\":{\"kubeconfig\":" + Json.write(
            io.apiserver4j.core.Value.of(KUBECONFIG)) + extraData + "}}"));
  }

  /** RFC 7515 HS256 with the payload detached (appendix F), computed independently. */
  private static String expectedSignature(String id, String secret) throws Exception {
    Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
    String header = url.encodeToString(("{\"alg\":\"HS256\",\"kid\":\"" + id + "\"}")
        .getBytes(StandardCharsets.UTF_8));
    String input = header + "." + url.encodeToString(KUBECONFIG.getBytes(StandardCharsets.UTF_8));
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return header + ".." + url.encodeToString(mac.doFinal(input.getBytes(
        StandardCharsets.US_ASCII)));
  }

  private MapValue data() {
    return Nested.map(configMaps().get("cluster-info"), "data");
  }

  @Test
  void clusterInfoIsSignedPerSigningTokenUntilTheTokenExpiresAndIsCleanedUp()
      throws Exception {
    clusterInfo(",\"jws-kubeconfig-gone00\":\"stale\"");
    token("abcdef", "0123456789abcdef", "2026-01-01T01:00:00Z", true);
    token("ghijkl", "fedcba9876543210", "", true);
    token("mnopqr", "notforsigning000", "", false);
    idle();

    assertThat(data().asMap().keySet()).containsExactlyInAnyOrder("kubeconfig",
        "jws-kubeconfig-abcdef", "jws-kubeconfig-ghijkl");
    assertThat(Nested.str(data(), "jws-kubeconfig-abcdef"))
        .isEqualTo(expectedSignature("abcdef", "0123456789abcdef"));
    assertThat(Nested.str(data(), "jws-kubeconfig-ghijkl"))
        .isEqualTo(expectedSignature("ghijkl", "fedcba9876543210"));

    // nothing to change: no update
    String rv = Meta.metaString(configMaps().get("cluster-info"), "resourceVersion");
    secrets().patch("bootstrap-token-mnopqr",
        io.apiserver4j.apimachinery.patch.PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"touched\":\"yes\"}}}");
    idle();
    assertThat(Meta.metaString(configMaps().get("cluster-info"), "resourceVersion"))
        .isEqualTo(rv);

    // a stale signature is replaced
    configMaps().update(configMaps().get("cluster-info").with("data",
        data().with("jws-kubeconfig-ghijkl", io.apiserver4j.core.Value.of("stale"))));
    idle();
    assertThat(Nested.str(data(), "jws-kubeconfig-ghijkl"))
        .isEqualTo(expectedSignature("ghijkl", "fedcba9876543210"));

    // still there a second before it expires; the cleaner deletes it once it has, and the
    // signer drops its signature
    clock.set(java.time.Instant.parse("2026-01-01T00:59:59Z"));
    idle();
    assertThat(secrets().find("bootstrap-token-abcdef")).isPresent();
    clock.set(java.time.Instant.parse("2026-01-01T01:00:00Z"));
    idle();
    assertThat(secrets().find("bootstrap-token-abcdef")).isEmpty();
    assertThat(data().asMap().keySet()).containsExactlyInAnyOrder("kubeconfig",
        "jws-kubeconfig-ghijkl");
  }

  @Test
  void anUnreadableExpirationCountsAsExpired() {
    token("abcdef", "0123456789abcdef", "tomorrow", true);
    token("ghijkl", "fedcba9876543210", "2025-12-31T23:59:59Z", false);
    token("mnopqr", "notexpiring00000", "2026-01-02T00:00:00+01:00", false);
    idle();
    assertThat(secrets().list()).extracting(s -> Meta.metaString(s, "name"))
        .containsExactly("bootstrap-token-mnopqr");
  }
}
