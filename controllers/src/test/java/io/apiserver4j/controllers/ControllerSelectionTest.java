/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code --controllers} selection, from {@code controller-selection.yaml}. */
class ControllerSelectionTest {
  private static ApiServer api;

  @BeforeAll
  static void server() {
    api = ApiServer.builder().bootstrap(false).build();
  }

  @AfterAll
  static void close() {
    api.close();
  }

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = ControllerSelectionTest.class.getResourceAsStream(
        "controller-selection.yaml")) {
      ListValue all = (ListValue) Yaml.read(new String(in.readAllBytes(),
          StandardCharsets.UTF_8));
      return all.items().stream().map(v -> Arguments.of(Nested.str(v, "flag"), v));
    }
  }

  @ParameterizedTest(name = "--controllers={0}")
  @MethodSource("cases")
  void selects(String flag, MapValue c) {
    if (Nested.has(c, "error")) {
      assertThatThrownBy(() -> ControllerManager.builder(api).controllers(flag))
          .isInstanceOf(IllegalArgumentException.class).hasMessage(Nested.str(c, "error"));
      return;
    }
    try (ControllerManager m = ControllerManager.builder(api).controllers(flag).start()) {
      List<String> implemented = Meta.stringList(c.getOrNull("enabled")).stream()
          .filter(n -> KnownControllers.all().stream()
              .anyMatch(d -> d.name().equals(n) && d.factory().isPresent()))
          .toList();
      assertThat(m.controllers()).isEqualTo(implemented);
      assertThat(m.awaitIdle(Duration.ofSeconds(30))).isTrue();
    }
  }

  @Test
  void knowsKubesControllerNames() {
    assertThat(ControllerManager.knownControllers()).contains("garbage-collector-controller",
        "namespace-controller", "deployment-controller", "replicaset-controller",
        "clusterrole-aggregation-controller", "root-ca-certificate-publisher-controller");
  }

  @Test
  void optionsAreSetOnce() {
    ControllerManager.Builder b = ControllerManager.builder(api).controllers("*");
    assertThatThrownBy(() -> b.controllers("*")).isInstanceOf(IllegalStateException.class)
        .hasMessage("controllers was already set");
  }
}
