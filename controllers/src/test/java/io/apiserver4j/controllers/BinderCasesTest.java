/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The persistent volume binder on a server, from the cases of kube's binder_test.go that fit
 * (see {@code binder-cases.yaml}).
 */
class BinderCasesTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = BinderCasesTest.class.getResourceAsStream("binder-cases.yaml")) {
      ListValue all = (ListValue) Yaml.read(new String(in.readAllBytes(),
          StandardCharsets.UTF_8));
      return all.items().stream().map(v -> Arguments.of(Nested.str(v, "name"), v));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void binds(String name, MapValue c) {
    SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
    try (ApiServer api = ApiServer.builder().bootstrap(false).clock(clock).build()) {
      api.resources("v1", "namespaces").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
      for (Value v : Nested.list(c, "volumes")) {
        String ref = Nested.str(v, "claimRef");
        String claimRef = ref.isEmpty() ? "" : ",\"claimRef\":{\"namespace\":\"ns\",\"name\":\""
            + ref + "\"" + (Nested.str(v, "claimUid").isEmpty() ? ""
                : ",\"uid\":\"" + Nested.str(v, "claimUid") + "\"") + "}";
        api.resources(PVS).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
            + "\"PersistentVolume\",\"metadata\":{\"name\":\"" + Nested.str(v, "name")
            + "\"},\"spec\":{\"capacity\":{\"storage\":\"" + Nested.str(v, "size") + "\"},"
            + "\"accessModes\":[\"ReadWriteOnce\"],\"hostPath\":{\"path\":\"/data\"}"
            + claimRef + "}}"));
      }
      for (Value v : Nested.list(c, "claims")) {
        String volumeName = Nested.str(v, "volumeName");
        api.resources(PVCS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
            + "\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"" + Nested.str(v, "name")
            + "\"},\"spec\":{\"storageClassName\":\"\",\"accessModes\":[\"ReadWriteOnce\"],"
            + "\"resources\":{\"requests\":{\"storage\":\"" + Nested.str(v, "size") + "\"}}"
            + (volumeName.isEmpty() ? "" : ",\"volumeName\":\"" + volumeName + "\"") + "}}"));
      }
      try (ControllerManager controllers = ControllerManager.builder(api).clock(clock)
          .controllers("persistentvolume-binder").start()) {
        assertThat(controllers.awaitIdle(IDLE)).isTrue();
        for (Value e : Nested.list(c, "expect", "volumes")) {
          MapValue pv = api.resources(PVS).get(Nested.str(e, "name"));
          assertThat(Nested.str(pv, "status", "phase")).as("phase").isEqualTo(
              Nested.str(e, "phase"));
          assertThat(Nested.str(pv, "spec", "claimRef", "name")).as("claimRef").isEqualTo(
              Nested.str(e, "claim"));
          assertThat(bindingAnnotations(pv)).as("annotations").isEqualTo(
              Meta.stringList(Nested.getOrNull(e, "annotations")));
        }
        for (Value e : Nested.list(c, "expect", "claims")) {
          MapValue pvc = api.resources(PVCS).namespace("ns").get(Nested.str(e, "name"));
          assertThat(Nested.str(pvc, "status", "phase")).as("phase").isEqualTo(
              Nested.str(e, "phase"));
          assertThat(Nested.str(pvc, "spec", "volumeName")).as("volumeName").isEqualTo(
              Nested.str(e, "volume"));
          assertThat(bindingAnnotations(pvc)).as("annotations").isEqualTo(
              Meta.stringList(Nested.getOrNull(e, "annotations")));
        }
      }
    }
  }

  /** Which of the binder's two annotations the object has, set to "yes", in a fixed order. */
  private static List<String> bindingAnnotations(MapValue object) {
    return Stream.of("bind-completed", "bound-by-controller")
        .filter(a -> "yes".equals(Meta.annotations(object).get("pv.kubernetes.io/" + a)))
        .toList();
  }
}
