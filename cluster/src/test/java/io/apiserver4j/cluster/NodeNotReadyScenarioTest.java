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
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A kubelet keeps running, its Lease renewed, but reports {@code Ready=False}: kube's node
 * lifecycle controller trusts the reported condition (the heartbeats are fresh, so it never
 * becomes Unknown) and taints the Node {@code node.kubernetes.io/not-ready} (NoSchedule, then
 * NoExecute), and the taint eviction controller deletes its Pods when
 * their default 300 s tolerations run out; the ReplicaSet's replacements run elsewhere. Reasons,
 * messages and timings are kube's (node_lifecycle_controller.go, taint_eviction.go, the
 * DefaultTolerationSeconds admission plugin, kubelet's KubeletNotReady condition).
 */
class NodeNotReadyScenarioTest {
  private static final String NOT_READY = "node.kubernetes.io/not-ready";
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

  private MapValue node(String name) {
    return f.api.resources(ClusterFixture.NODES).get(name);
  }

  private static MapValue condition(MapValue object, String type) {
    for (Value c : Nested.list(object, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return (MapValue) c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + object);
  }

  private List<String> taints(String node) {
    return Nested.list(node(node), "spec", "taints").stream()
        .map(t -> Nested.str(t, "key") + ":" + Nested.str(t, "effect")).toList();
  }

  private Instant leaseRenewed(String node) {
    return Instant.parse(Nested.str(f.api.resources("coordination.k8s.io/v1", "leases")
        .namespace("kube-node-lease").get(node), "spec", "renewTime"));
  }

  private MapValue podOn(String node) {
    return f.pods().list().stream()
        .filter(p -> Nested.str(p, "spec", "nodeName").equals(node)).findFirst().orElseThrow();
  }

  @Test
  void aRunningKubeletReportingNotReadyHasItsPodsEvictedWhileItsLeaseStaysFresh() {
    f = new ClusterFixture(b -> b,
        "replicaset,node-lifecycle-controller,taint-eviction-controller");
    f.api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Namespace\",\"metadata\":{\"name\":\"default\"}}"));
    f.api.resources("apps/v1", "replicasets").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
    f.idle();
    String name = Meta.metaString(podOn("node-2"), "name");

    f.cluster.setNodeCondition("node-2", "Ready", "False", "KubeletNotReady",
        "container runtime is down");
    f.idle();
    // posted at once, a heartbeat like any other
    MapValue ready = condition(node("node-2"), "Ready");
    assertThat(Nested.str(ready, "status")).isEqualTo("False");
    assertThat(Nested.str(ready, "reason")).isEqualTo("KubeletNotReady");
    assertThat(Nested.str(ready, "message")).isEqualTo("container runtime is down");
    assertThat(Nested.str(ready, "lastTransitionTime")).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Nested.str(condition(node("node-2"), "MemoryPressure"), "status"))
        .isEqualTo("False");
    // the NoSchedule pass follows the condition at once
    assertThat(taints("node-2")).containsExactly(NOT_READY + ":NoSchedule");
    assertThat(f.cluster.kubeletStopped("node-2")).isFalse();

    // the Node's own report is not the controller's change: kube's MarkPodsNotReady and the
    // NodeNotReady Event only follow a Ready condition the controller itself made Unknown
    advanceTo(at("00:00:05"));
    assertThat(Nested.str(condition(f.pods().get(name), "Ready"), "status")).isEqualTo("True");
    // the NoExecute taint follows within a pass
    advanceTo(at("00:00:10"));
    MapValue noExecute = Nested.list(node("node-2"), "spec", "taints").stream()
        .map(t -> (MapValue) t)
        .filter(t -> Nested.str(t, "key").equals(NOT_READY)
            && Nested.str(t, "effect").equals("NoExecute"))
        .findFirst().orElseThrow(() -> new AssertionError("no NoExecute taint: "
            + taints("node-2")));
    Instant tainted = Instant.parse(Nested.str(noExecute, "timeAdded"));
    assertThat(tainted).isBetween(at("00:00:00"), at("00:00:10"));
    // the Node is never Unknown: its Lease is renewed every 10 s
    assertThat(Nested.str(condition(node("node-2"), "Ready"), "status")).isEqualTo("False");

    // tolerated for 300 s from the taint
    advanceTo(tainted.plusSeconds(295));
    assertThat(Meta.hasMeta(f.pods().get(name), "deletionTimestamp")).isFalse();
    advanceTo(tainted.plusSeconds(300));
    MapValue evicted = f.pods().get(name);
    assertThat(Meta.hasMeta(evicted, "deletionTimestamp")).isTrue();
    MapValue target = condition(evicted, "DisruptionTarget");
    assertThat(Nested.str(target, "reason")).isEqualTo("DeletionByTaintManager");
    assertThat(Nested.str(target, "message"))
        .isEqualTo("Taint manager: deleting due to NoExecute taint");
    ready = condition(node("node-2"), "Ready");
    assertThat(Nested.str(ready, "status")).isEqualTo("False");
    assertThat(Nested.str(ready, "reason")).isEqualTo("KubeletNotReady");
    assertThat(taints("node-2")).containsExactlyInAnyOrder(NOT_READY + ":NoSchedule",
        NOT_READY + ":NoExecute");
    // the clock stands at 00:05:00-00:05:10; the kubelet renews its Lease every 10 s
    assertThat(leaseRenewed("node-2")).isAfterOrEqualTo(at("00:04:50"));

    // the running kubelet removes the evicted Pod after its 30 s grace period
    advanceTo(tainted.plusSeconds(330));
    assertThat(f.pods().find(name)).isEmpty();
    List<MapValue> live = f.pods().list();
    assertThat(live).hasSize(3).allSatisfy(p -> {
      assertThat(Nested.str(p, "spec", "nodeName")).isIn("node-1", "node-3");
      assertThat(Nested.str(p, "status", "phase")).isEqualTo("Running");
    });

    // healthy again: untainted at the next monitor pass
    f.cluster.setNodeCondition("node-2", "Ready", "True", "KubeletReady",
        "kubelet is posting ready status");
    f.idle();
    advanceTo(f.clock.instant().plusSeconds(5));
    assertThat(Nested.str(condition(node("node-2"), "Ready"), "status")).isEqualTo("True");
    assertThat(taints("node-2")).isEmpty();
  }

  @Test
  void badConditionsAreRefusedNamingThem() {
    f = new ClusterFixture(b -> b, "");
    assertThatThrownBy(() -> f.cluster.setNodeCondition("node-9", "Ready", "False", "r", "m"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("node-9");
    assertThatThrownBy(() -> f.cluster.setNodeCondition("node-1", "NetworkUnavailable", "True",
        "r", "m")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("NetworkUnavailable");
    assertThatThrownBy(() -> f.cluster.setNodeCondition("node-1", "Ready", "maybe", "r", "m"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maybe");
  }
}
