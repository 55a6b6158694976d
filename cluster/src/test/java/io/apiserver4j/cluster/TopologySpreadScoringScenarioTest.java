/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler's PodTopologySpread scoring in a simulated cluster: a Deployment's
 * {@code ScheduleAnyway} zone constraint evens its Pods out over zones of unequal size, and a
 * ReplicaSet's Pods without constraints get kube's system default spreading (by hostname) with
 * the ReplicaSet's selector, strong enough to outweigh least-allocated scoring.
 */
class TopologySpreadScoringScenarioTest {
  private ClusterFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private Map<String, Long> perZone(List<MapValue> pods) {
    Map<String, String> zoneOf = f.api.resources(ClusterFixture.NODES).list().stream()
        .collect(Collectors.toMap(n -> Meta.metaString(n, "name"),
            n -> Meta.labels(n).get("topology.kubernetes.io/zone")));
    return pods.stream().collect(Collectors.groupingBy(
        p -> zoneOf.get(Nested.str(p, "spec", "nodeName")), Collectors.counting()));
  }

  @Test
  void sixReplicasWithAScheduleAnywayZoneConstraintLandTwoPerZone() {
    // four Nodes in zone-a, one in each of the others: one Pod per Node would be 4/1/1
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("a-1").zone("zone-a").build(),
        NodeConfig.builder("a-2").zone("zone-a").build(),
        NodeConfig.builder("a-3").zone("zone-a").build(),
        NodeConfig.builder("a-4").zone("zone-a").build(),
        NodeConfig.builder("b-1").zone("zone-b").build(),
        NodeConfig.builder("c-1").zone("zone-c").build())), "deployment,replicaset");
    f.api.resources("apps/v1", "deployments").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":6,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":"
            + "\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"ScheduleAnyway\","
            + "\"labelSelector\":{\"matchLabels\":{\"app\":\"web\"}}}],"
            + "\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
    f.idle();
    List<MapValue> pods = f.pods().list();
    assertThat(pods).hasSize(6).allSatisfy(p ->
        assertThat(Nested.str(p, "status", "phase")).isEqualTo("Running"));
    assertThat(perZone(pods)).containsOnly(Map.entry("zone-a", 2L), Map.entry("zone-b", 2L),
        Map.entry("zone-c", 2L));
  }

  @Test
  void aReplicaSetsPodsSpreadByHostnameOverLeastAllocatedScoring() {
    // least-allocated scoring alone prefers the big Node for every Pod
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("big").capacity("cpu", "64").capacity("memory", "256Gi").build(),
        NodeConfig.builder("small").capacity("cpu", "2").capacity("memory", "4Gi").build())),
        "replicaset");
    f.api.resources("apps/v1", "replicasets").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\",\"resources\":"
            + "{\"requests\":{\"cpu\":\"500m\",\"memory\":\"512Mi\"}}}]}}}}"));
    f.idle();
    assertThat(f.pods().list()).extracting(p -> Nested.str(p, "spec", "nodeName"))
        .containsExactlyInAnyOrder("big", "small");

    // a Pod the ReplicaSet does not own is not spread with them
    f.createPod("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"solo\","
        + "\"namespace\":\"ns\",\"labels\":{\"app\":\"solo\"}},\"spec\":{\"containers\":[{"
        + "\"name\":\"c\",\"image\":\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"500m\","
        + "\"memory\":\"512Mi\"}}}]}}");
    f.idle();
    assertThat(Nested.str(f.pods().get("solo"), "spec", "nodeName")).isEqualTo("big");
  }
}
