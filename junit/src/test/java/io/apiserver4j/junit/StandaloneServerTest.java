/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.NotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** {@link TestApiServer#start} outside JUnit: HTTP on first use, and what a reset writes. */
class StandaloneServerTest {

  static MapValue configMap(String name, String value) {
    return (MapValue) Yaml.read("{apiVersion: v1, kind: ConfigMap, metadata: {name: " + name
        + "}, data: {k: " + value + "}}");
  }

  static String resourceVersion(MapValue object) {
    return Nested.str(object, "metadata", "resourceVersion");
  }

  static String name(MapValue object) {
    return Nested.str(object, "metadata", "name");
  }

  @Test
  void httpAndTheKubeconfigStartOnFirstUse() {
    Path file;
    try (TestApiServer.Standalone server = TestApiServer.start()) {
      assertThat(server.resources("v1", "namespaces").get("default")).isNotNull();
      assertThat(server.toString()).contains("HTTP not started");

      file = server.kubeconfig().path();
      assertThat(file).exists();
      assertThat(server.url().getPort()).isPositive();
      assertThat(server.http()).isSameAs(server.http());
      assertThat(server.kubeconfig().yaml()).contains(server.url().toString());
      assertThat(server.toString()).contains(server.url().toString());
    }
    assertThat(file).doesNotExist();
  }

  @Test
  void httpDoesNotStartAfterClose() {
    TestApiServer.Standalone server = TestApiServer.start();
    server.close();
    assertThatThrownBy(server::http).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
  }

  @Test
  void aResetWritesBackWhatChangedAndNothingWhenNothingChanged(
      @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
    Path manifest = dir.resolve("cm.yaml");
    Files.writeString(manifest, """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: kept, namespace: default}
        data: {k: v}
        """);
    try (TestApiServer.Standalone server = TestApiServer.start(manifest.toString())) {
      ResourceClient configMaps = server.resources("v1", "configmaps").namespace("default");
      MapValue loaded = configMaps.get("kept");
      long start = server.api().store().currentRevision();

      server.reset();
      assertThat(server.api().store().currentRevision()).isEqualTo(start);
      assertThat(configMaps.get("kept")).isEqualTo(loaded);

      configMaps.create(configMap("added", "x"));
      configMaps.update(configMap("kept", "changed"));
      server.reset();
      assertThatThrownBy(() -> configMaps.get("added")).isInstanceOf(NotFoundException.class);
      MapValue restored = configMaps.get("kept");
      assertThat(Meta.withoutMeta(restored, "resourceVersion"))
          .isEqualTo(Meta.withoutMeta(loaded, "resourceVersion"));
      // resourceVersions keep increasing across a reset, as in etcd
      assertThat(Long.parseLong(resourceVersion(restored)))
          .isGreaterThan(Long.parseLong(resourceVersion(loaded)));

      long afterReset = server.api().store().currentRevision();
      server.reset();
      assertThat(server.api().store().currentRevision()).isEqualTo(afterReset);
      assertThat(configMaps.get("kept")).isEqualTo(restored);
      assertThat(configMaps.list()).map(StandaloneServerTest::name).containsExactly("kept");
    }
  }
}
