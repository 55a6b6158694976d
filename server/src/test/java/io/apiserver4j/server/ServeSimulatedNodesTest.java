/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.cluster.PodSimulation;
import io.apiserver4j.cluster.SimulatedCluster;
import io.apiserver4j.http.Kubectl;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --simulated-nodes} and {@code --simulated-nodes-config}: Pods are bound and run. */
class ServeSimulatedNodesTest {
  @TempDir
  Path dir;

  @Test
  void offByDefault() {
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port", "0"))) {
      assertThat(running.cluster()).isEmpty();
      assertThat(running.api().resources("v1", "nodes").list()).isEmpty();
    }
  }

  @Test
  void simulatedNodesBindAndRunAPod() {
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port", "0",
        "--simulated-nodes", "2"))) {
      SimulatedCluster cluster = running.cluster().orElseThrow();
      assertThat(cluster.nodes()).containsExactly("node-1", "node-2");
      running.api().resources("v1", "pods").namespace("default").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},"
              + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
      assertThat(cluster.awaitIdle(Duration.ofSeconds(30))).isTrue();
      MapValue pod = running.api().resources("v1", "pods").namespace("default").get("p");
      assertThat(Nested.str(pod, "spec", "nodeName")).startsWith("node-");
      assertThat(Nested.str(pod, "status", "phase")).isEqualTo("Running");
    }
  }

  @Test
  void kubectlLogsReadsTheSimulatedKubelets() throws Exception {
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--simulated-nodes", "1");
    try (Serve.Running running = Serve.start(options)) {
      Kubectl kubectl = new Kubectl(Files.createDirectories(dir.resolve("kubectl")),
          running.kubeconfig(options));
      running.api().resources("v1", "pods").namespace("default").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\","
              + "\"annotations\":{\"" + PodSimulation.LOG + "\":\"hello\\nworld\\n\"}},"
              + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
      assertThat(running.cluster().orElseThrow().awaitIdle(Duration.ofSeconds(30))).isTrue();

      assertThat(kubectl.ok("logs", "p")).isEqualTo("hello\nworld\n");
      assertThat(kubectl.ok("logs", "p", "--tail=1")).isEqualTo("world\n");
      assertThat(kubectl.ok("logs", "pod/p", "-c", "c", "--limit-bytes=3")).isEqualTo("hel");
      // kubectl checks the container itself first, with kube-apiserver's message
      assertThat(kubectl.run("logs", "p", "-c", "nope").stderr())
          .contains("container nope is not valid for pod p");
      // no kubelet listens: kube-apiserver's answer to an upgrade it cannot dial
      assertThat(kubectl.run("exec", "p", "--", "ls").stderr())
          .contains("error dialing backend: dial tcp 172.18.0.2:10250: connect: connection"
              + " refused");
    }
  }

  @Test
  void aConfigurationFileNamesTheNodes() throws Exception {
    Path config = Files.writeString(dir.resolve("nodes.yaml"),
        "nodes:\n- name: edge-a\n  zone: z1\n");
    try (Serve.Running running = Serve.start(ServeOptions.parse("--secure-port", "0",
        "--simulated-nodes-config", config.toString()))) {
      MapValue node = running.api().resources("v1", "nodes").get("edge-a");
      assertThat(Meta.labels(node)).containsEntry("topology.kubernetes.io/zone", "z1");
    }
    Path bad = Files.writeString(dir.resolve("bad.yaml"), "nodez: 1\n");
    assertThatThrownBy(() -> Serve.start(ServeOptions.parse("--secure-port", "0",
        "--simulated-nodes-config", bad.toString())))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodez");
  }
}
