/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The node lifecycle controller on Nodes, Leases and Pods the test writes as a kubelet would,
 * on the server clock: the expectations of kube's
 * pkg/controller/nodelifecycle/node_lifecycle_controller_test.go (TestMonitorNodeHealthUpdateStatus,
 * TestMonitorNodeHealthUpdateNodeAndPodStatusWithLease, TestMonitorNodeHealthMarkPodsNotReady,
 * TestApplyNoExecuteTaints, TestSwapUnreachableNotReadyTaints, the disruption cases of
 * TestMonitorNodeHealthEvictPodsWithDisruption) with kube's defaults: a 5 s monitor period, a 50 s
 * grace period, 60 s for a Node that never posted status, and 0.1 Nodes/s tainted per zone.
 */
class NodeLifecycleScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicReference<Instant> now = new AtomicReference<>(T0);
  private final Clock clock = new Clock() {
    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now.get();
    }
  };
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    for (String ns : List.of("ns", "kube-node-lease", "default")) {
      api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
          + "\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
    }
  }

  private void startController() {
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("node-lifecycle-controller").start();
    idle();
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  /** Moves the clock to {@code t} in monitor periods, idle after each. */
  private void advanceTo(Instant t) {
    while (now.get().isBefore(t)) {
      Instant next = now.get().plusSeconds(5);
      now.set(next.isAfter(t) ? t : next);
      idle();
    }
  }

  private static Instant at(long seconds) {
    return T0.plusSeconds(seconds);
  }

  private static String time(Instant t) {
    return t.toString();
  }

  private void node(String name, String zone) {
    api.resources(NODES).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"kubernetes.io/os\":\"linux\","
        + "\"beta.kubernetes.io/os\":\"linux\",\"kubernetes.io/arch\":\"amd64\","
        + "\"beta.kubernetes.io/arch\":\"amd64\"" + (zone.isEmpty() ? ""
            : ",\"topology.kubernetes.io/zone\":\"" + zone + "\"") + "}}}"));
  }

  /** What a kubelet posts: Ready and MemoryPressure, heartbeat now. */
  private void postStatus(String name, String ready) {
    MapValue n = api.resources(NODES).get(name);
    String t = time(now.get());
    String reason = ready.equals("True") ? "KubeletReady" : "KubeletNotReady";
    List<Value> old = Nested.list(n, "status", "conditions");
    String transition = t;
    for (Value c : old) {
      if (Nested.str(c, "type").equals("Ready") && Nested.str(c, "status").equals(ready)) {
        transition = Nested.str(c, "lastTransitionTime");
      }
    }
    MapValue status = (MapValue) Json.read("{\"conditions\":["
        + "{\"type\":\"MemoryPressure\",\"status\":\"False\",\"lastHeartbeatTime\":\"" + t
        + "\",\"lastTransitionTime\":\"" + time(T0) + "\",\"reason\":"
        + "\"KubeletHasSufficientMemory\",\"message\":\"kubelet has sufficient memory available\"},"
        + "{\"type\":\"Ready\",\"status\":\"" + ready + "\",\"lastHeartbeatTime\":\"" + t
        + "\",\"lastTransitionTime\":\"" + transition + "\",\"reason\":\"" + reason
        + "\",\"message\":\"kubelet is posting ready status\"}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES).name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(n.with("status", status)).build()).orThrow();
  }

  private void renewLease(String name) {
    ResourceClient leases = api.resources(LEASES).namespace("kube-node-lease");
    String renew = now.get().toString().replace("Z", ".000000Z");
    if (leases.find(name).isEmpty()) {
      leases.create(Json.read("{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\","
          + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"kube-node-lease\"},"
          + "\"spec\":{\"holderIdentity\":\"" + name + "\",\"leaseDurationSeconds\":40,"
          + "\"renewTime\":\"" + renew + "\"}}"));
    } else {
      MapValue l = leases.get(name);
      leases.update(Nested.set(l, Value.of(renew), "spec", "renewTime"));
    }
  }

  private MapValue nodeObject(String name) {
    return api.resources(NODES).get(name);
  }

  private static MapValue condition(MapValue object, String type) {
    for (Value c : Nested.list(object, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return (MapValue) c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + object);
  }

  private List<String> noExecuteTaints(String name) {
    return Nested.list(nodeObject(name), "spec", "taints").stream()
        .filter(t -> Nested.str(t, "effect").equals("NoExecute"))
        .map(t -> Nested.str(t, "key") + "@" + Nested.str(t, "timeAdded")).toList();
  }

  @Test
  void aNodeThatNeverPostedStatusIsUnknownAfterTheStartupGracePeriod() {
    node("never", "");
    startController();
    advanceTo(at(60));
    assertThat(Nested.list(nodeObject("never"), "status", "conditions")).isEmpty();
    advanceTo(at(65));
    MapValue n = nodeObject("never");
    for (String type : List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure")) {
      assertThat(condition(n, type)).isEqualTo(Json.read("{\"type\":\"" + type + "\","
          + "\"status\":\"Unknown\",\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\","
          + "\"lastTransitionTime\":\"2026-01-01T00:01:05Z\",\"reason\":"
          + "\"NodeStatusNeverUpdated\",\"message\":\"Kubelet never posted node status.\"}"));
    }
  }

  @Test
  void aSilentNodeBecomesUnknownThenUnreachableTaintedAndReadyAgainUntainted() {
    node("a", "z1");
    node("b", "z2");
    postStatus("a", "True");
    postStatus("b", "True");
    startController();
    // b keeps posting; a falls silent after 00:00:00
    for (long s = 10; s <= 50; s += 10) {
      advanceTo(at(s));
      postStatus("b", "True");
    }
    assertThat(Nested.str(condition(nodeObject("a"), "Ready"), "status")).isEqualTo("True");
    advanceTo(at(55));
    MapValue a = nodeObject("a");
    assertThat(condition(a, "Ready")).isEqualTo(Json.read("{\"type\":\"Ready\",\"status\":"
        + "\"Unknown\",\"lastHeartbeatTime\":\"2026-01-01T00:00:00Z\",\"lastTransitionTime\":"
        + "\"2026-01-01T00:00:55Z\",\"reason\":\"NodeStatusUnknown\",\"message\":"
        + "\"Kubelet stopped posting node status.\"}"));
    assertThat(Nested.str(condition(a, "MemoryPressure"), "status")).isEqualTo("Unknown");
    assertThat(Nested.str(condition(a, "MemoryPressure"), "reason"))
        .isEqualTo("NodeStatusUnknown");
    assertThat(Nested.str(condition(a, "DiskPressure"), "reason"))
        .isEqualTo("NodeStatusNeverUpdated");
    // the NoExecute taint follows the Unknown condition one pass later
    assertThat(noExecuteTaints("a")).isEmpty();
    // the NoSchedule pass follows the condition at once
    assertThat(Nested.list(a, "spec", "taints")).extracting(t -> Nested.str(t, "key") + ":"
        + Nested.str(t, "effect")).containsExactly("node.kubernetes.io/unreachable:NoSchedule");
    advanceTo(at(60));
    assertThat(noExecuteTaints("a"))
        .containsExactly("node.kubernetes.io/unreachable@2026-01-01T00:01:00Z");
    assertThat(noExecuteTaints("b")).isEmpty();

    // the kubelet comes back NotReady: the taint is swapped at once on the next pass
    postStatus("a", "False");
    advanceTo(at(65));
    assertThat(noExecuteTaints("a"))
        .containsExactly("node.kubernetes.io/not-ready@2026-01-01T00:01:05Z");
    // and Ready: no NoExecute taint left
    postStatus("a", "True");
    advanceTo(at(70));
    assertThat(noExecuteTaints("a")).isEmpty();
    assertThat(Nested.list(nodeObject("a"), "spec", "taints")).isEmpty();

    List<MapValue> events = api.resources("v1", "events").namespace("default").list();
    assertThat(events).extracting(e -> Nested.str(e, "reason") + ": "
        + Nested.str(e, "message")).contains(
            "RegisteredNode: Registered Node a in Controller",
            "RegisteredNode: Registered Node b in Controller",
            "NodeNotReady: Node a status is now: NodeNotReady");
  }

  @Test
  void leaseRenewalsAreHeartbeats() {
    node("leased", "");
    postStatus("leased", "True");
    renewLease("leased");
    startController();
    for (long s = 10; s <= 120; s += 10) {
      advanceTo(at(s));
      renewLease("leased");
    }
    // the status was posted once, at 00:00:00, but the Lease kept it healthy
    assertThat(Nested.str(condition(nodeObject("leased"), "Ready"), "status")).isEqualTo("True");
    // the last renewal (00:02:00) was first seen by the pass at 00:02:05: Unknown after 00:02:55
    advanceTo(at(175));
    assertThat(Nested.str(condition(nodeObject("leased"), "Ready"), "status")).isEqualTo("True");
    advanceTo(at(180));
    assertThat(Nested.str(condition(nodeObject("leased"), "Ready"), "status"))
        .isEqualTo("Unknown");
  }

  @Test
  void podsOnANodeThatStopsBeingReadyAreMarkedNotReady() {
    node("a", "z1");
    node("b", "z2");
    postStatus("a", "True");
    postStatus("b", "True");
    api.resources(PODS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"},\"spec\":{\"nodeName\":"
        + "\"a\",\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}"));
    MapValue p = api.resources(PODS).namespace("ns").get("p");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("p")
        .subresource("status").options(UpdateOptions.defaults())
        .body(p.with("status", Json.read("{\"phase\":\"Running\",\"conditions\":[{\"type\":"
            + "\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]}")))
        .build()).orThrow();
    startController();
    for (long s = 10; s <= 50; s += 10) {
      advanceTo(at(s));
      postStatus("b", "True");
    }
    advanceTo(at(55));
    MapValue marked = api.resources(PODS).namespace("ns").get("p");
    assertThat(condition(marked, "Ready")).isEqualTo(Json.read("{\"type\":\"Ready\","
        + "\"status\":\"False\",\"lastTransitionTime\":\"2026-01-01T00:00:55Z\"}"));
    assertThat(api.resources("v1", "events").namespace("ns").list()).singleElement()
        .satisfies(e -> {
          assertThat(Nested.str(e, "reason")).isEqualTo("NodeNotReady");
          assertThat(Nested.str(e, "message")).isEqualTo("Node is not ready");
          assertThat(Nested.str(e, "type")).isEqualTo("Warning");
          assertThat(Nested.str(e, "source", "component")).isEqualTo("node-controller");
        });
    // a Pod bound later to the unready Node is marked too (kube's podUpdated: its nodeName
    // changed)
    api.resources(PODS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Pod\",\"metadata\":{\"name\":\"late\",\"namespace\":\"ns\"},\"spec\":"
        + "{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}"));
    MapValue late = api.resources(PODS).namespace("ns").get("late");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("late")
        .subresource("status").options(UpdateOptions.defaults())
        .body(late.with("status", Json.read("{\"phase\":\"Pending\",\"conditions\":[{\"type\":"
            + "\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:00:55Z\"}]}")))
        .build()).orThrow();
    idle();
    api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace("ns").name("late")
        .subresource("binding").body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Binding\","
            + "\"metadata\":{\"name\":\"late\",\"namespace\":\"ns\"},\"target\":"
            + "{\"kind\":\"Node\",\"name\":\"a\"}}")).build()).orThrow();
    idle();
    assertThat(Nested.str(condition(api.resources(PODS).namespace("ns").get("late"), "Ready"),
        "status")).isEqualTo("False");
  }

  @Test
  void whenEveryZoneIsFullyDisruptedNothingIsTainted() {
    node("only", "");
    postStatus("only", "True");
    startController();
    advanceTo(at(120));
    assertThat(Nested.str(condition(nodeObject("only"), "Ready"), "status"))
        .isEqualTo("Unknown");
    // kube's master disruption mode: no NoExecute taint while no Node anywhere is Ready
    assertThat(noExecuteTaints("only")).isEmpty();
  }

  @Test
  void aNormalZoneTaintsAtMostOneNodeEveryTenSeconds() {
    node("a", "z");
    node("b", "z");
    node("c", "z");
    node("d", "z");
    node("e", "z");
    for (String n : List.of("a", "b", "c", "d", "e")) {
      postStatus(n, "True");
    }
    startController();
    // a and b fall silent; c, d and e keep posting: 2 of 5 unready is a normal zone
    for (long s = 10; s <= 60; s += 10) {
      advanceTo(at(s));
      for (String n : List.of("c", "d", "e")) {
        postStatus(n, "True");
      }
    }
    // Unknown at 00:00:55, queued for tainting at 00:01:00: one Node at once, the next after 10 s
    assertThat(noExecuteTaints("a"))
        .containsExactly("node.kubernetes.io/unreachable@2026-01-01T00:01:00Z");
    assertThat(noExecuteTaints("b")).isEmpty();
    advanceTo(at(70));
    assertThat(noExecuteTaints("b"))
        .containsExactly("node.kubernetes.io/unreachable@2026-01-01T00:01:10Z");
  }
}
