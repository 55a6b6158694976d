/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Simulated Nodes through the public API: the Node objects and Leases kubelet registers.
 * Expected conditions, reasons and messages are kubelet's (pkg/kubelet/nodestatus/setters.go),
 * the lease fields pkg/kubelet/nodelease's, its 40 s duration and 10 s renewal kubelet's
 * defaults ({@code nodeLeaseDurationSeconds}, {@code renewInterval = 0.25 * duration}).
 */
class SimulatedNodesTest {
  private ClusterFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  @Test
  void threeDefaultNodesAreReadyWithKubeletsStatus() {
    f = new ClusterFixture(b -> b, "");
    f.idle();
    List<MapValue> nodes = f.api.resources(ClusterFixture.NODES).list();
    assertThat(nodes).extracting(n -> Meta.metaString(n, "name"))
        .containsExactly("node-1", "node-2", "node-3");
    assertThat(nodes).allSatisfy(n -> assertThat(Nested.list(n, "spec", "taints")).isEmpty());
    MapValue node = nodes.get(0);
    assertThat(Meta.labels(node)).containsExactlyInAnyOrderEntriesOf(Map.of(
        "beta.kubernetes.io/arch", "amd64", "beta.kubernetes.io/os", "linux",
        "kubernetes.io/arch", "amd64", "kubernetes.io/hostname", "node-1",
        "kubernetes.io/os", "linux"));
    assertThat(Nested.list(node, "status", "conditions")).containsExactly(
        condition("MemoryPressure", "False", "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available"),
        condition("DiskPressure", "False", "KubeletHasNoDiskPressure",
            "kubelet has no disk pressure"),
        condition("PIDPressure", "False", "KubeletHasSufficientPID",
            "kubelet has sufficient PID available"),
        condition("Ready", "True", "KubeletReady", "kubelet is posting ready status"));
    assertThat(Nested.list(node, "status", "addresses")).containsExactly(
        Json.read("{\"type\":\"InternalIP\",\"address\":\"172.18.0.2\"}"),
        Json.read("{\"type\":\"Hostname\",\"address\":\"node-1\"}"));
    assertThat(Nested.map(node, "status", "capacity")).isEqualTo(Json.read(
        "{\"cpu\":\"4\",\"ephemeral-storage\":\"100Gi\",\"memory\":\"16Gi\",\"pods\":\"110\"}"));
    assertThat(Nested.map(node, "status", "allocatable"))
        .isEqualTo(Nested.map(node, "status", "capacity"));
    assertThat(Nested.str(node, "spec", "podCIDR")).isEqualTo("10.244.0.0/24");
    assertThat(Nested.list(node, "spec", "podCIDRs")).containsExactly(Value.of("10.244.0.0/24"));
    assertThat(Nested.str(nodes.get(2), "spec", "podCIDR")).isEqualTo("10.244.2.0/24");
    MapValue info = Nested.map(node, "status", "nodeInfo");
    assertThat(Nested.str(info, "kubeletVersion")).isEqualTo("v1.36.0");
    assertThat(Nested.str(info, "operatingSystem")).isEqualTo("linux");
    assertThat(Nested.str(info, "architecture")).isEqualTo("amd64");
    assertThat(Nested.integer(node, "status", "daemonEndpoints", "kubeletEndpoint", "Port"))
        .isEqualTo(10250);
    assertThat(Nested.str(Nested.list(node, "metadata", "managedFields").get(0), "manager"))
        .isEqualTo("kubelet");
  }

  private static Value condition(String type, String status, String reason, String message) {
    return Json.read("{\"type\":\"" + type + "\",\"status\":\"" + status
        + "\",\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\","
        + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"reason\":\"" + reason
        + "\",\"message\":\"" + message + "\"}");
  }

  @Test
  void configuredNodesCarryLabelsZoneCapacityAndTaints() {
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("worker-a").zone("zone-a").label("tier", "gold")
            .capacity("cpu", "8").capacity("nvidia.com/gpu", "2")
            .taint("dedicated", "gpu", "NoSchedule").build())), "");
    f.idle();
    MapValue node = f.api.resources(ClusterFixture.NODES).get("worker-a");
    assertThat(Meta.labels(node)).containsEntry("topology.kubernetes.io/zone", "zone-a")
        .containsEntry("tier", "gold").containsEntry("kubernetes.io/hostname", "worker-a");
    assertThat(Nested.str(node, "status", "allocatable", "cpu")).isEqualTo("8");
    assertThat(Nested.str(node, "status", "allocatable", "nvidia.com/gpu")).isEqualTo("2");
    // admission's not-ready taint is gone once the Node is Ready, the configured one stays
    assertThat(Nested.list(node, "spec", "taints")).containsExactly(Json.read(
        "{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}"));
  }

  @Test
  void eachNodeHasALeaseRenewedEveryTenSecondsOfServerTime() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.idle();
    MapValue node = f.api.resources(ClusterFixture.NODES).get("node-1");
    MapValue lease = f.api.resources("coordination.k8s.io/v1", "leases")
        .namespace("kube-node-lease").get("node-1");
    assertThat(Nested.map(lease, "spec")).isEqualTo(Json.read("{\"holderIdentity\":\"node-1\","
        + "\"leaseDurationSeconds\":40,\"renewTime\":\"2026-01-01T00:00:00.000000Z\"}"));
    assertThat(Nested.list(lease, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"node-1\",\"uid\":\""
            + Meta.metaString(node, "uid") + "\"}"));

    f.advance(Duration.ofSeconds(5));
    assertThat(renewTime()).isEqualTo("2026-01-01T00:00:00.000000Z");
    f.advance(Duration.ofSeconds(5));
    assertThat(renewTime()).isEqualTo("2026-01-01T00:00:10.000000Z");
    f.advance(Duration.ofSeconds(25));
    // a clock that jumps past several intervals renews once, late, as a kubelet would
    assertThat(renewTime()).isEqualTo("2026-01-01T00:00:35.000000Z");
  }

  private String renewTime() {
    return Nested.str(f.api.resources("coordination.k8s.io/v1", "leases")
        .namespace("kube-node-lease").get("node-1"), "spec", "renewTime");
  }

  @Test
  void nodeStatusIsReportedEveryFiveMinutesKeepingTransitionTimes() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.idle();
    f.advance(Duration.ofMinutes(5));
    MapValue ready = (MapValue) Nested.list(f.api.resources(ClusterFixture.NODES).get("node-1"),
        "status", "conditions").get(3);
    assertThat(Nested.str(ready, "lastHeartbeatTime")).isEqualTo("2026-01-01T00:05:00Z");
    assertThat(Nested.str(ready, "lastTransitionTime")).isEqualTo("2026-01-01T00:00:00Z");
  }

  @Test
  void aYamlConfigurationDescribesTheNodes() {
    f = new ClusterFixture(b -> b.configuration("""
        nodes:
        - name: edge
          zone: zone-b
          labels: {tier: edge}
          capacity: {cpu: 2, memory: 4Gi}
          taints: [{key: edge, effect: NoExecute}]
        startDuration: 5s
        """), "");
    f.idle();
    MapValue node = f.api.resources(ClusterFixture.NODES).get("edge");
    assertThat(Meta.labels(node)).containsEntry("topology.kubernetes.io/zone", "zone-b")
        .containsEntry("tier", "edge");
    assertThat(Nested.str(node, "status", "capacity", "cpu")).isEqualTo("2");
    assertThat(Nested.str(node, "status", "capacity", "memory")).isEqualTo("4Gi");
    assertThat(Nested.list(node, "spec", "taints"))
        .containsExactly(Json.read("{\"key\":\"edge\",\"effect\":\"NoExecute\"}"));
    assertThatThrownBy(() -> SimulatedCluster.builder(f.api).configuration("nodez: 3"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodez");
    assertThatThrownBy(() -> SimulatedCluster.builder(f.api)
        .configuration("runDuration: soon")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("runDuration");
  }

  @Test
  void theBuilderRejectsBadOptionsNamingThem() {
    assertThatThrownBy(() -> NodeConfig.builder("Bad_Name"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Bad_Name");
    assertThatThrownBy(() -> NodeConfig.builder("n").capacity("cpu", "lots"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lots");
    assertThatThrownBy(() -> new NodeTaint("k", "v", "Sometimes"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Sometimes");
    assertThatThrownBy(() -> NodeConfig.defaults(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
