/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's pkg/controller/ttl/ttl_controller_test.go: {@code TestPatchNode},
 * {@code TestUpdateNodeIfNeeded} and {@code TestDesiredTTL}, with kube's expected patches and
 * TTLs.
 */
class TtlControllerTest {
  private static final String TTL10 =
      "{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"10\"}}}";

  static Stream<Arguments> patchNode() {
    return Stream.of(
        Arguments.of("{}", 0,
            "{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"0\"}}}"),
        Arguments.of("{}", 10, TTL10),
        Arguments.of("{\"metadata\":{\"name\":\"name\"}}", 10, TTL10),
        Arguments.of("{\"metadata\":{\"annotations\":{}}}", 10, TTL10),
        Arguments.of("{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"0\"}}}",
            10, TTL10),
        Arguments.of("{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"0\","
            + "\"a\":\"b\"}}}", 10, TTL10),
        Arguments.of("{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"10\","
            + "\"a\":\"b\"}}}", 10, "{}"));
  }

  @ParameterizedTest(name = "{0} to {1}")
  @MethodSource
  void patchNode(String node, int ttlSeconds, String patch) {
    assertThat(TtlController.patch((MapValue) Json.read(node), ttlSeconds)).isEqualTo(patch);
  }

  static Stream<Arguments> updateNodeIfNeeded() {
    String named = "{\"metadata\":{\"name\":\"name\"}}";
    String ttl60 = "{\"metadata\":{\"name\":\"name\",\"annotations\":"
        + "{\"node.alpha.kubernetes.io/ttl\":\"60\"}}}";
    return Stream.of(
        Arguments.of(named, 0, patchTo(0)),
        Arguments.of(named, 15, patchTo(15)),
        Arguments.of(named, 30, patchTo(30)),
        Arguments.of("{\"metadata\":{\"name\":\"name\",\"annotations\":"
            + "{\"node.alpha.kubernetes.io/ttl\":\"0\"}}}", 60, patchTo(60)),
        Arguments.of(ttl60, 60, ""),
        Arguments.of(ttl60, 30, patchTo(30)));
  }

  private static String patchTo(int ttl) {
    return "{\"metadata\":{\"annotations\":{\"node.alpha.kubernetes.io/ttl\":\"" + ttl + "\"}}}";
  }

  @ParameterizedTest(name = "{0} to {1}")
  @MethodSource
  void updateNodeIfNeeded(String node, int desired, String patch) {
    assertThat(TtlController.patchIfNeeded((MapValue) Json.read(node), desired).orElse(""))
        .isEqualTo(patch);
  }

  static Stream<Arguments> desiredTtl() {
    return Stream.of(
        Arguments.of(true, 0, 0, 0, 0),
        Arguments.of(true, 99, 0, 0, 0),
        Arguments.of(true, 100, 0, 0, 15),
        Arguments.of(false, 101, 15, 1, 15),
        Arguments.of(false, 91, 15, 1, 15),
        Arguments.of(true, 91, 15, 1, 15),
        Arguments.of(false, 90, 15, 1, 0));
  }

  @ParameterizedTest(name = "add={0} count={1} ttl={2} step={3}")
  @MethodSource
  void desiredTtl(boolean add, int nodeCount, int desired, int step, int expected) {
    TtlBoundaries b = new TtlBoundaries(nodeCount, step, desired);
    if (add) {
      b.nodeAdded();
    } else {
      b.nodeDeleted();
    }
    assertThat(b.desiredTtlSeconds()).isEqualTo(expected);
  }
}
