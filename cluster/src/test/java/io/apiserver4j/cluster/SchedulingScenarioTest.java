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
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's inter-pod affinity, topology spread and preemption in a simulated cluster on
 * a test clock. Expected messages are kube-scheduler's (its plugins' reasons, FitError, the
 * default preemption plugin's condition, event and messages).
 */
class SchedulingScenarioTest {
  private ClusterFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private static String pod(String name, String labels, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"ns\",\"labels\":" + labels + "},\"spec\":" + spec + "}";
  }

  private static Optional<MapValue> condition(MapValue pod, String type) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return Optional.of((MapValue) c);
      }
    }
    return Optional.empty();
  }

  private static String scheduledMessage(MapValue pod) {
    return Nested.str(condition(pod, "PodScheduled").orElseThrow(), "message");
  }

  @Test
  void aDeploymentWithHostnameAntiAffinitySpreadsOnePodPerNode() {
    f = new ClusterFixture(b -> b.nodes(3), "deployment,replicaset");
    f.api.resources("apps/v1", "deployments").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":4,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"affinity\":{\"podAntiAffinity\":{"
            + "\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":"
            + "{\"matchLabels\":{\"app\":\"web\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}},"
            + "\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
    f.idle();
    List<MapValue> pods = f.pods().list();
    assertThat(pods).hasSize(4);
    Map<String, Long> perNode = pods.stream().collect(Collectors.groupingBy(
        p -> Nested.str(p, "spec", "nodeName"), Collectors.counting()));
    assertThat(perNode).containsEntry("node-1", 1L).containsEntry("node-2", 1L)
        .containsEntry("node-3", 1L).containsEntry("", 1L);
    MapValue pending = pods.stream().filter(p -> Nested.str(p, "spec", "nodeName").isEmpty())
        .findFirst().orElseThrow();
    // anti-affinity is resolvable by preemption, but no Pod has a lower priority
    assertThat(scheduledMessage(pending)).isEqualTo("0/3 nodes are available: 3 node(s) didn't"
        + " match pod anti-affinity rules. no new claims to deallocate, preemption: 0/3 nodes"
        + " are available: 3 No preemption victims found for incoming pod.");
    MapValue d = f.api.resources("apps/v1", "deployments").namespace("ns").get("web");
    assertThat(Nested.integer(d, "status", "readyReplicas")).isEqualTo(3);
  }

  @Test
  void podsSpreadEvenlyOverZonesAndAMissingTopologyKeyIsUnresolvable() {
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("node-1").zone("zone-a").build(),
        NodeConfig.builder("node-2").zone("zone-a").build(),
        NodeConfig.builder("node-3").zone("zone-b").build())), "");
    String spread = "{\"topologySpreadConstraints\":[{\"maxSkew\":1,\"topologyKey\":"
        + "\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"DoNotSchedule\","
        + "\"labelSelector\":{\"matchLabels\":{\"app\":\"spread\"}}}],"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}";
    for (int i = 0; i < 4; i++) {
      f.createPod(pod("p" + i, "{\"app\":\"spread\"}", spread));
      f.idle();
    }
    Map<String, String> placed = f.pods().list().stream().collect(Collectors.toMap(
        p -> Meta.metaString(p, "name"), p -> Nested.str(p, "spec", "nodeName")));
    // least-allocated picks node-1 first; the zone constraint then alternates the zones
    assertThat(placed).containsEntry("p0", "node-1").containsEntry("p1", "node-3")
        .containsEntry("p2", "node-2").containsEntry("p3", "node-3");

    f.createPod(pod("rack", "{\"app\":\"spread\"}", spread.replace(
        "topology.kubernetes.io/zone", "example.com/rack")));
    f.idle();
    MapValue rack = f.pods().get("rack");
    assertThat(Nested.str(rack, "spec", "nodeName")).isEmpty();
    assertThat(scheduledMessage(rack)).isEqualTo("0/3 nodes are available: 3 node(s) didn't"
        + " match pod topology spread constraints (missing required label). no new claims to"
        + " deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for"
        + " scheduling.");
  }

  private void priorityClass(String name, long value, String preemptionPolicy) {
    f.api.resources("scheduling.k8s.io/v1", "priorityclasses").create(Json.read(
        "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\",\"metadata\":"
            + "{\"name\":\"" + name + "\"},\"value\":" + value + ",\"preemptionPolicy\":\""
            + preemptionPolicy + "\"}"));
  }

  private static String cpu(String priorityClass, String cpu) {
    return "{\"priorityClassName\":\"" + priorityClass + "\",\"containers\":[{\"name\":\"c\","
        + "\"image\":\"nginx\",\"resources\":{\"requests\":{\"cpu\":\"" + cpu + "\"}}}]}";
  }

  @Test
  void aHighPriorityPodPreemptsALowPriorityOneOnAFullNode() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    priorityClass("low", 100, "PreemptLowerPriority");
    priorityClass("high", 1000, "PreemptLowerPriority");
    f.createPod(pod("low", "{\"app\":\"low\"}", cpu("low", "3")));
    f.idle();
    assertThat(Nested.str(f.pods().get("low"), "status", "phase")).isEqualTo("Running");

    MapValue high = f.createPod(pod("high", "{\"app\":\"high\"}", cpu("high", "3")));
    f.idle();
    MapValue victim = f.pods().get("low");
    assertThat(Meta.hasMeta(victim, "deletionTimestamp")).isTrue();
    MapValue disruption = condition(victim, "DisruptionTarget").orElseThrow();
    assertThat(Nested.str(disruption, "status")).isEqualTo("True");
    assertThat(Nested.str(disruption, "reason")).isEqualTo("PreemptionByScheduler");
    assertThat(Nested.str(disruption, "message"))
        .isEqualTo("default-scheduler: preempting to accommodate a higher priority pod");
    List<MapValue> preempted = f.events("ns").stream()
        .filter(e -> Nested.str(e, "reason").equals("Preempted")).toList();
    assertThat(preempted).hasSize(1);
    assertThat(Nested.str(preempted.get(0), "regarding", "name")).isEqualTo("low");
    assertThat(Nested.str(preempted.get(0), "type")).isEqualTo("Normal");
    assertThat(Nested.str(preempted.get(0), "action")).isEqualTo("Preempting");
    assertThat(Nested.str(preempted.get(0), "related", "name")).isEqualTo("high");
    assertThat(Nested.str(preempted.get(0), "note")).isEqualTo("Preempted by pod "
        + Meta.metaString(high, "uid") + " on node node-1");

    MapValue waiting = f.pods().get("high");
    assertThat(Nested.str(waiting, "spec", "nodeName")).isEmpty();
    assertThat(Nested.str(waiting, "status", "nominatedNodeName")).isEqualTo("node-1");
    List<String> failures = f.events("ns").stream()
        .filter(e -> Nested.str(e, "reason").equals("FailedScheduling"))
        .map(e -> Nested.str(e, "note")).toList();
    // the preempting attempt reports the filters only; the next waits for the victim
    assertThat(failures).first().isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
    assertThat(scheduledMessage(waiting)).isEqualTo("0/1 nodes are available: 1 Insufficient"
        + " cpu. no new claims to deallocate, preemption: not eligible due to a terminating pod"
        + " on the nominated node.");

    // the victim's 30 s grace period passes, the kubelet removes it, the Pod is bound there
    f.advance(Duration.ofSeconds(30));
    assertThat(f.pods().find("low")).isEmpty();
    MapValue bound = f.pods().get("high");
    assertThat(Nested.str(bound, "spec", "nodeName")).isEqualTo("node-1");
    assertThat(Nested.str(bound, "status", "phase")).isEqualTo("Running");
  }

  @Test
  void aPodThatNeverPreemptsWaitsAndAnEqualPriorityPodIsNoVictim() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    priorityClass("low", 100, "PreemptLowerPriority");
    priorityClass("polite", 1000, "Never");
    f.createPod(pod("low", "{\"app\":\"low\"}", cpu("low", "3")));
    f.idle();
    f.createPod(pod("polite", "{\"app\":\"polite\"}", cpu("polite", "3")));
    f.createPod(pod("peer", "{\"app\":\"peer\"}", cpu("low", "3")));
    f.idle();
    assertThat(Meta.hasMeta(f.pods().get("low"), "deletionTimestamp")).isFalse();
    assertThat(scheduledMessage(f.pods().get("polite"))).isEqualTo("0/1 nodes are available:"
        + " 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to"
        + " preemptionPolicy=Never.");
    assertThat(scheduledMessage(f.pods().get("peer"))).isEqualTo("0/1 nodes are available:"
        + " 1 Insufficient cpu. no new claims to deallocate, preemption: 0/1 nodes are"
        + " available: 1 No preemption victims found for incoming pod.");
  }

  @Test
  void aPodWithRequiredAffinityWaitsForItsPeerAndJoinsItsNode() {
    f = new ClusterFixture(b -> b.nodes(3), "");
    f.createPod(pod("app", "{\"app\":\"web\"}", "{\"affinity\":{\"podAffinity\":{"
        + "\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":"
        + "{\"matchLabels\":{\"app\":\"db\"}},\"topologyKey\":\"kubernetes.io/hostname\"}]}},"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    f.idle();
    MapValue waiting = f.pods().get("app");
    assertThat(Nested.str(waiting, "spec", "nodeName")).isEmpty();
    // required affinity is unresolvable: preemption cannot help on any Node
    assertThat(scheduledMessage(waiting)).isEqualTo("0/3 nodes are available: 3 node(s) didn't"
        + " match pod affinity rules. no new claims to deallocate, preemption: 0/3 nodes are"
        + " available: 3 Preemption is not helpful for scheduling.");
    f.createPod(pod("db", "{\"app\":\"db\"}", "{\"nodeSelector\":{"
        + "\"kubernetes.io/hostname\":\"node-2\"},\"containers\":[{\"name\":\"c\","
        + "\"image\":\"postgres\"}]}"));
    f.idle();
    assertThat(Nested.str(f.pods().get("db"), "spec", "nodeName")).isEqualTo("node-2");
    assertThat(Nested.str(f.pods().get("app"), "spec", "nodeName")).isEqualTo("node-2");
  }
}
