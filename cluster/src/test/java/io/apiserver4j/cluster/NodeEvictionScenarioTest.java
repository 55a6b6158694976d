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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kubelet stops, and kube-controller-manager's node lifecycle and taint eviction controllers
 * take its Pods away as in a cluster: the Node's conditions become Unknown after the 50 s grace
 * period, it is tainted unreachable, its Pods are deleted once their default 300 s tolerations
 * have run out, and the ReplicaSet's replacements run on the healthy Nodes. Expected reasons,
 * messages and timings are kube's (node_lifecycle_controller.go, taint_eviction.go, the
 * DefaultTolerationSeconds admission plugin).
 */
class NodeEvictionScenarioTest {
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private ClusterFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  /** Moves the clock to {@code target} in 5 s steps (the monitor period), idle after each. */
  private void advanceTo(Instant target) {
    f.advanceTo(target, Duration.ofSeconds(5));
  }

  private static Instant at(String hms) {
    return Instant.parse("2026-01-01T" + hms + "Z");
  }

  private static MapValue condition(MapValue object, String type) {
    for (Value c : Nested.list(object, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return (MapValue) c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + object);
  }

  /** The core/v1 Events kube-controller-manager's recorders write. */
  private List<MapValue> coreEvents(String namespace) {
    return f.api.resources("v1", "events").namespace(namespace).list();
  }

  private MapValue node(String name) {
    return f.api.resources(ClusterFixture.NODES).get(name);
  }

  private MapValue podOn(String node) {
    return f.pods().list().stream()
        .filter(p -> Nested.str(p, "spec", "nodeName").equals(node)).findFirst().orElseThrow();
  }

  private List<MapValue> taints(String node) {
    return Nested.list(node(node), "spec", "taints").stream().map(t -> (MapValue) t).toList();
  }

  @Test
  void aStoppedKubeletsPodsAreEvictedAfterTheirTolerationsAndReplacedOnHealthyNodes() {
    f = new ClusterFixture(b -> b,
        "replicaset,node-lifecycle-controller,taint-eviction-controller");
    // where Node events go (kube-apiserver's bootstrap makes it; this server skips bootstrap)
    f.api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Namespace\",\"metadata\":{\"name\":\"default\"}}"));
    f.api.resources("apps/v1", "replicasets").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
    f.idle();
    MapValue victim = podOn("node-2");
    String name = Meta.metaString(victim, "name");
    // DefaultTolerationSeconds gave every Pod kube's 300 s tolerations
    assertThat(Nested.list(victim, "spec", "tolerations")).contains(
        Json.read("{\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}"),
        Json.read("{\"key\":\"node.kubernetes.io/unreachable\",\"operator\":\"Exists\","
            + "\"effect\":\"NoExecute\",\"tolerationSeconds\":300}"));

    f.cluster.stopKubelet("node-2");
    assertThat(f.cluster.kubeletStopped("node-2")).isTrue();
    // the last heartbeat was at 00:00:00: still within the grace period at 00:00:50
    advanceTo(at("00:00:50"));
    assertThat(Nested.str(condition(node("node-2"), "Ready"), "status")).isEqualTo("True");

    // the first monitor pass past the 50 s grace period
    advanceTo(at("00:00:55"));
    MapValue ready = condition(node("node-2"), "Ready");
    assertThat(Nested.str(ready, "status")).isEqualTo("Unknown");
    assertThat(Nested.str(ready, "reason")).isEqualTo("NodeStatusUnknown");
    assertThat(Nested.str(ready, "message")).isEqualTo("Kubelet stopped posting node status.");
    assertThat(Nested.str(ready, "lastTransitionTime")).isEqualTo("2026-01-01T00:00:55Z");
    assertThat(Nested.str(ready, "lastHeartbeatTime")).isEqualTo("2026-01-01T00:00:00Z");
    for (String type : List.of("MemoryPressure", "DiskPressure", "PIDPressure")) {
      assertThat(Nested.str(condition(node("node-2"), type), "status")).isEqualTo("Unknown");
      assertThat(Nested.str(condition(node("node-2"), type), "reason"))
          .isEqualTo("NodeStatusUnknown");
    }
    assertThat(Nested.str(condition(node("node-1"), "Ready"), "status")).isEqualTo("True");
    // MarkPodsNotReady
    MapValue podReady = condition(f.pods().get(name), "Ready");
    assertThat(Nested.str(podReady, "status")).isEqualTo("False");
    assertThat(Nested.str(podReady, "lastTransitionTime")).isEqualTo("2026-01-01T00:00:55Z");
    assertThat(coreEvents("ns")).anySatisfy(e -> {
      assertThat(Nested.str(e, "reason")).isEqualTo("NodeNotReady");
      assertThat(Nested.str(e, "message")).isEqualTo("Node is not ready");
      assertThat(Nested.str(e, "type")).isEqualTo("Warning");
      assertThat(Nested.str(e, "involvedObject", "name")).isEqualTo(name);
    });
    assertThat(coreEvents("default")).anySatisfy(e -> {
      assertThat(Nested.str(e, "reason")).isEqualTo("NodeNotReady");
      assertThat(Nested.str(e, "message")).isEqualTo("Node node-2 status is now: NodeNotReady");
      assertThat(Nested.str(e, "involvedObject", "kind")).isEqualTo("Node");
    });
    // the NoSchedule pass follows the condition at once; the NoExecute taint comes with the
    // next pass, which acts on the condition the previous one left
    assertThat(taints("node-2")).extracting(t -> Nested.str(t, "key") + ":"
        + Nested.str(t, "effect")).containsExactly("node.kubernetes.io/unreachable:NoSchedule");

    advanceTo(at("00:01:00"));
    assertThat(taints("node-2")).contains((MapValue) Json.read("{\"key\":\"node.kubernetes.io/unreachable\","
        + "\"effect\":\"NoExecute\",\"timeAdded\":\"2026-01-01T00:01:00Z\"}"));

    // tolerated for 300 s from when the taint was seen
    advanceTo(at("00:05:55"));
    assertThat(Meta.hasMeta(f.pods().get(name), "deletionTimestamp")).isFalse();
    advanceTo(at("00:06:00"));
    MapValue evicted = f.pods().get(name);
    assertThat(Meta.metaString(evicted, "deletionTimestamp")).isEqualTo("2026-01-01T00:06:30Z");
    MapValue target = condition(evicted, "DisruptionTarget");
    assertThat(Nested.str(target, "status")).isEqualTo("True");
    assertThat(Nested.str(target, "reason")).isEqualTo("DeletionByTaintManager");
    assertThat(Nested.str(target, "message"))
        .isEqualTo("Taint manager: deleting due to NoExecute taint");
    assertThat(coreEvents("ns")).anySatisfy(e -> {
      assertThat(Nested.str(e, "reason")).isEqualTo("TaintManagerEviction");
      assertThat(Nested.str(e, "message")).isEqualTo("Marking for deletion Pod ns/" + name);
      assertThat(Nested.str(e, "type")).isEqualTo("Normal");
    });
    // the ReplicaSet replaced it on a healthy Node, where it runs
    List<MapValue> live = f.pods().list().stream()
        .filter(p -> !Meta.hasMeta(p, "deletionTimestamp")).toList();
    assertThat(live).hasSize(3);
    assertThat(live).allSatisfy(p -> {
      assertThat(Nested.str(p, "spec", "nodeName")).isIn("node-1", "node-3");
      assertThat(Nested.str(p, "status", "phase")).isEqualTo("Running");
    });
    MapValue rs = f.api.resources("apps/v1", "replicasets").namespace("ns").get("web");
    assertThat(Nested.integer(rs, "status", "readyReplicas")).isEqualTo(3);

    // the kubelet comes back: Ready, untainted, and the evicted Pod goes after its grace period
    f.cluster.startKubelet("node-2");
    // it renews its Lease and posts Ready at 00:06:00; the monitor pass at 00:06:05 sees it
    f.idle();
    assertThat(f.cluster.kubeletStopped("node-2")).isFalse();
    advanceTo(at("00:06:05"));
    assertThat(Nested.str(condition(node("node-2"), "Ready"), "status")).isEqualTo("True");
    assertThat(taints("node-2")).isEmpty();
    advanceTo(at("00:06:30"));
    assertThat(f.pods().find(name)).isEmpty();
    assertThat(f.pods().list()).hasSize(3);
  }
}
