/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.cluster.SimulatedCluster;
import io.apiserver4j.controllers.metrics.MetricsApi;
import io.apiserver4j.controllers.metrics.PodMetrics;
import io.apiserver4j.core.Json;
import io.apiserver4j.http.Kubectl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl top} through the real kubectl against {@code serve --simulated-nodes 2} with
 * {@code metrics.k8s.io} served from {@link PodMetrics} ({@link MetricsApi}), as against a cluster
 * running metrics-server; and kubectl's "Metrics API not available" without it. Expected lines
 * are kubectl's {@code TopCmdPrinter}: CPU as milli-cores, memory in whole Mi, node percentages
 * of the Node's allocatable (a simulated Node's default 4 CPUs and 16Gi), columns aligned by
 * kubectl's tab writer (minimum width 6, padding 3), trailing blanks dropped.
 */
class ServeKubectlTopTest {
  @TempDir
  Path dir;

  private static List<String> lines(String out) {
    return Arrays.stream(out.split("\n")).map(String::stripTrailing).toList();
  }

  @Test
  void kubectlTopReadsTheMetricsApi() throws Exception {
    ServeOptions options = ServeOptions.parse("--secure-port", "0", "--simulated-nodes", "2");
    try (Serve.Running running = Serve.start(options)) {
      SimulatedCluster cluster = running.cluster().orElseThrow();
      for (String pod : List.of("web-1", "web-2")) {
        running.api().resources("v1", "pods").namespace("default").create(Json.read(
            "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + pod + "\","
                + "\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
                + "\"image\":\"nginx\"},{\"name\":\"sidecar\",\"image\":\"envoy\"}]}}"));
      }
      assertThat(cluster.awaitIdle(Duration.ofSeconds(30))).isTrue();

      Kubectl before = new Kubectl(Files.createDirectories(dir.resolve("before")),
          running.kubeconfig(options));
      assertThat(before.run("top", "pod").stderr()).contains("Metrics API not available");

      PodMetrics metrics = PodMetrics.create()
          .setContainerUsage("default", "web-1", "c", "250m", "64Mi")
          .setContainerUsage("default", "web-1", "sidecar", "10m", "16Mi")
          .setContainerUsage("default", "web-2", "c", "100m", "32Mi")
          .setContainerUsage("default", "web-2", "sidecar", "0", "0")
          .setNodeUsage("node-1", Map.of("cpu", "1", "memory", "4Gi"))
          .setNodeUsage("node-2", Map.of("cpu", "500m", "memory", "1Gi"));
      try (MetricsApi served = MetricsApi.serve(running.api(), metrics,
          Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC))) {
        Kubectl kubectl = new Kubectl(Files.createDirectories(dir.resolve("kubectl")),
            running.kubeconfig(options));
        assertThat(lines(kubectl.ok("top", "pod"))).containsExactly(
            "NAME    CPU(cores)   MEMORY(bytes)",
            "web-1   260m         80Mi",
            "web-2   100m         32Mi");
        assertThat(lines(kubectl.ok("top", "pod", "--containers"))).containsExactly(
            "POD     NAME      CPU(cores)   MEMORY(bytes)",
            "web-1   c         250m         64Mi",
            "web-1   sidecar   10m          16Mi",
            "web-2   c         100m         32Mi",
            "web-2   sidecar   0m           0Mi");
        assertThat(lines(kubectl.ok("top", "pod", "web-2"))).containsExactly(
            "NAME    CPU(cores)   MEMORY(bytes)",
            "web-2   100m         32Mi");
        assertThat(lines(kubectl.ok("top", "pod", "-l", "app=none", "--no-headers")))
            .containsExactly("");
        assertThat(lines(kubectl.ok("top", "node"))).containsExactly(
            "NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)",
            "node-1   1000m        25%      4096Mi          25%",
            "node-2   500m         12%      1024Mi          6%");
        // metrics-server's table columns for kubectl get
        assertThat(lines(kubectl.ok("get", "podmetrics", "web-1"))).containsExactly(
            "NAME    CPU    MEMORY   WINDOW",
            "web-1   260m   80Mi     15s");
      }
    }
  }
}
