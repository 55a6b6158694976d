/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ContinueTokenTest {
  private static String b64(String json) {
    return Base64.getUrlEncoder().withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void encodesLikeKubeApiserver() {
    ContinueToken t = ContinueToken.after(CollectionKey.all("", "pods"),
        ObjectKey.namespaced("", "pods", "ns", "p1"), 42);
    assertThat(t.startKey()).isEqualTo("ns/p1\0");
    // base64url(json) of {"v":"meta.k8s.io/v1","rv":42,"start":"ns/p1\u0000"}
    assertThat(t.encode()).isEqualTo(b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":42,\"start\":\"ns/p1\\u0000\"}"));
    assertThat(ContinueToken.decode(t.encode())).isEqualTo(t);
    ContinueToken inNamespace = ContinueToken.after(CollectionKey.inNamespace("", "pods", "ns"),
        ObjectKey.namespaced("", "pods", "ns", "p1"), 42);
    assertThat(inNamespace.startKey()).isEqualTo("p1\0");
    assertThat(inNamespace.relativeStartKey(CollectionKey.inNamespace("", "pods", "ns")))
        .isEqualTo("ns/p1\0");
  }

  @Test
  void acceptsALeadingSlashAndTheLatestRevisionMarker() {
    ContinueToken t = ContinueToken.decode(b64("{\"v\":\"meta.k8s.io/v1\",\"rv\":-1,\"start\":\"/a\"}"));
    assertThat(t).isEqualTo(new ContinueToken(-1, "a"));
  }

  @ParameterizedTest(name = "[{0}]")
  @CsvSource(delimiter = '|', value = {
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":0,\"start\":\"a\"}|continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":5}|continue key is not valid: encoded start key empty (version meta.k8s.io/v1)",
      "{\"v\":\"x\",\"rv\":5,\"start\":\"a\"}|continue key is not valid: server does not recognize this encoded version x",
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"a/../../b\"}|continue key is not valid: a/../../b",
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"a//b\"}|continue key is not valid: a//b",
      "{\"v\":\"meta.k8s.io/v1\",\"rv\":5,\"start\":\"a/\"}|continue key is not valid: a/",
  })
  void rejectsInvalidTokens(String json, String detail) {
    assertThatThrownBy(() -> ContinueToken.decode(b64(json)))
        .isInstanceOfSatisfying(BadRequestException.class,
            e -> assertThat(e.getMessage()).isEqualTo("invalid continue token: " + detail));
  }

  @Test
  void rejectsGarbage() {
    assertThatThrownBy(() -> ContinueToken.decode("%%%"))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("invalid continue token: continue key is not valid");
    assertThatThrownBy(() -> ContinueToken.decode(b64("not json")))
        .isInstanceOf(BadRequestException.class)
        .hasMessageStartingWith("invalid continue token: continue key is not valid");
  }
}
