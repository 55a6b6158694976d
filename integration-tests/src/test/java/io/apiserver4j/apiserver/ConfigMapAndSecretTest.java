/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.json;
import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import org.junit.jupiter.api.Test;

/**
 * ConfigMap and Secret registry rules users meet first: Secret {@code stringData} is merged
 * into {@code data} and never stored (kube's Secret documentation), and both kinds hold at most
 * 1 MiB of data (kube's MaxSecretSize, with the messages kube-apiserver answers).
 */
class ConfigMapAndSecretTest {
  private static final GroupVersionResource CONFIGMAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final GroupVersionResource SECRETS =
      new GroupVersionResource("", "v1", "secrets");
  private final Fixtures f = new Fixtures();

  @Test
  void stringDataIsMergedIntoDataAndNeverStored() {
    ApiResponse r = f.create(SECRETS, "default", json("{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
        + "\"metadata\":{\"name\":\"s\"},\"data\":{\"a\":\"b2xk\",\"keep\":\"eA==\"},"
        + "\"stringData\":{\"a\":\"new\",\"b\":\"héllo\"}}"), "kubectl");

    assertThat(r.code()).isEqualTo(201);
    MapValue stored = f.get(SECRETS, "default", "s").orThrow();
    // stringData overwrites data's keys; values are base64 of their UTF-8 bytes
    assertThat(stored.getOrNull("data")).isEqualTo(json("{\"a\":\"bmV3\",\"keep\":\"eA==\","
        + "\"b\":\"aMOpbGxv\"}"));
    assertThat(stored.containsKey("stringData")).isFalse();
    assertThat(str(stored, "type")).isEqualTo("Opaque");
  }

  @Test
  void dataOverOneMebibyteIsInvalid() {
    String big = "x".repeat(1024 * 1024 + 1);
    ApiResponse cm = f.create(CONFIGMAPS, "default", json("{\"apiVersion\":\"v1\","
        + "\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"big\"},\"data\":{\"k\":\"" + big
        + "\"}}"), "kubectl");
    ApiResponse secret = f.create(SECRETS, "default", json("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Secret\",\"metadata\":{\"name\":\"x\"},\"stringData\":{\"k\":\"" + big
        + "\"}}"), "kubectl");
    ApiResponse fits = f.create(CONFIGMAPS, "default", json("{\"apiVersion\":\"v1\","
        + "\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"fits\"},\"data\":{\"k\":\""
        + "x".repeat(1024 * 1024) + "\"}}"), "kubectl");

    assertThat(cm.code()).isEqualTo(422);
    assertThat(str(cm.body(), "message")).isEqualTo("ConfigMap \"big\" is invalid: []: Too long:"
        + " may not be more than 1048576 bytes");
    assertThat(secret.code()).isEqualTo(422);
    assertThat(str(secret.body(), "message")).isEqualTo("Secret \"x\" is invalid: data: Too long:"
        + " may not be more than 1048576 bytes");
    assertThat(fits.code()).isEqualTo(201);
    assertThat(f.get(CONFIGMAPS, "default", "big").code()).isEqualTo(404);
  }
}
