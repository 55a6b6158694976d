/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The taint eviction controller alone, on Nodes and Pods the test writes: the cases of kube's
 * pkg/controller/tainteviction/taint_eviction_test.go (TestCreatePod, TestUpdatePod,
 * TestCreateNode, TestUpdateNode, TestUpdateNodeWithMultipleTaints,
 * TestUpdateNodeWithMultiplePods, TestPodDeletionEvent), with kube's real waits replaced by the
 * server clock: a Pod is "deleted" when it has the DisruptionTarget condition and a deletion
 * timestamp.
 */
class TaintEvictionScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("taint-eviction-controller");
  }

  private void advance(Duration d) {
    clock.set(clock.instant().plus(d));
    scenario.idle();
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  /** kube's {@code createNoExecuteTaint(i)}. */
  private static String taint(int i) {
    return "{\"key\":\"testTaint" + i + "\",\"value\":\"test" + i + "\",\"effect\":\"NoExecute\","
        + "\"timeAdded\":\"2026-01-01T00:00:00Z\"}";
  }

  /** kube's {@code addToleration(pod, i, seconds)}: seconds below 0 tolerate forever. */
  private static String toleration(int i, long seconds) {
    return "{\"key\":\"testTaint" + i + "\",\"value\":\"test" + i + "\",\"effect\":\"NoExecute\""
        + (seconds < 0 ? "" : ",\"tolerationSeconds\":" + seconds) + "}";
  }

  private void node(int... taints) {
    StringBuilder t = new StringBuilder();
    for (int i : taints) {
      t.append(t.length() == 0 ? "" : ",").append(taint(i));
    }
    api.resources(NODES).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"node1\"},\"spec\":{\"taints\":[" + t + "]}}"));
  }

  private void setTaints(int... taints) {
    StringBuilder t = new StringBuilder();
    for (int i : taints) {
      t.append(t.length() == 0 ? "" : ",").append(taint(i));
    }
    MapValue n = api.resources(NODES).get("node1");
    // TaintNodesByCondition's not-ready NoSchedule taint stays; the NoExecute ones are replaced
    List<String> keep = Nested.list(n, "spec", "taints").stream()
        .filter(x -> !Nested.str(x, "effect").equals("NoExecute")).map(Json::write).toList();
    for (String k : keep) {
      t.append(t.length() == 0 ? "" : ",").append(k);
    }
    api.resources(NODES).update(Nested.set(n, Json.read("[" + t + "]"), "spec", "taints"));
  }

  private void pod(String name, String node, String... tolerations) {
    pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\",\"namespace\":\"ns\"},\"spec\":{" + (node.isEmpty() ? ""
            : "\"nodeName\":\"" + node + "\",") + "\"tolerations\":["
        + String.join(",", tolerations) + "],\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}"));
  }

  private boolean evicted(String name) {
    MapValue p = pods().get(name);
    boolean marked = Nested.list(p, "status", "conditions").stream().anyMatch(c ->
        Nested.str(c, "type").equals("DisruptionTarget"));
    return marked && Meta.hasMeta(p, "deletionTimestamp");
  }

  private List<MapValue> events() {
    return api.resources("v1", "events").namespace("ns").list();
  }

  @Test
  void createPodCases() {
    node(1);
    scenario.idle();
    pod("not-scheduled", "");
    pod("tainted", "node1");
    pod("finite", "node1", toleration(1, 100));
    pod("infinite", "node1", toleration(1, -1));
    pod("invalid", "node1", toleration(2, -1));
    scenario.idle();
    assertThat(evicted("not-scheduled")).isFalse();
    assertThat(evicted("tainted")).isTrue();
    assertThat(evicted("finite")).isFalse();
    assertThat(evicted("infinite")).isFalse();
    assertThat(evicted("invalid")).isTrue();
    // the finite toleration runs out 100 s after the Pod was seen on the tainted Node
    advance(Duration.ofSeconds(99));
    assertThat(evicted("finite")).isFalse();
    advance(Duration.ofSeconds(1));
    assertThat(evicted("finite")).isTrue();
    advance(Duration.ofHours(1));
    assertThat(evicted("infinite")).isFalse();
    assertThat(evicted("not-scheduled")).isFalse();
  }

  @Test
  void thePodConditionAndEventsAreKubes() {
    node(1);
    pod("p", "node1");
    scenario.idle();
    MapValue p = pods().get("p");
    MapValue target = (MapValue) Nested.list(p, "status", "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals("DisruptionTarget")).findFirst().orElseThrow();
    assertThat(target).isEqualTo(Json.read("{\"type\":\"DisruptionTarget\",\"status\":\"True\","
        + "\"lastTransitionTime\":\"2026-01-01T00:00:00Z\",\"reason\":\"DeletionByTaintManager\","
        + "\"message\":\"Taint manager: deleting due to NoExecute taint\"}"));
    // the default grace period
    assertThat(Meta.metaString(p, "deletionTimestamp")).isEqualTo("2026-01-01T00:00:30Z");
    assertThat(events()).singleElement().satisfies(e -> {
      assertThat(Nested.str(e, "reason")).isEqualTo("TaintManagerEviction");
      assertThat(Nested.str(e, "message")).isEqualTo("Marking for deletion Pod ns/p");
      assertThat(Nested.str(e, "type")).isEqualTo("Normal");
      assertThat(Nested.str(e, "source", "component")).isEqualTo("taint-eviction-controller");
      assertThat(Nested.str(e, "involvedObject", "kind")).isEqualTo("Pod");
      assertThat(Nested.str(e, "involvedObject", "apiVersion")).isEqualTo("v1");
      assertThat(Nested.str(e, "involvedObject", "name")).isEqualTo("p");
      assertThat(Nested.str(e, "involvedObject", "namespace")).isEqualTo("ns");
    });
  }

  @Test
  void updateNodeCases() {
    node();
    pod("pod1", "node1");
    pod("pod2", "node1", toleration(1, 1));
    pod("pod3", "node1", toleration(1, -1));
    scenario.idle();
    assertThat(events()).isEmpty();
    setTaints(1);
    scenario.idle();
    assertThat(evicted("pod1")).isTrue();
    assertThat(evicted("pod2")).isFalse();
    advance(Duration.ofSeconds(1));
    assertThat(evicted("pod2")).isTrue();
    advance(Duration.ofHours(1));
    assertThat(evicted("pod3")).isFalse();
    // a taint the remaining Pod does not tolerate evicts it at once
    setTaints(1, 2);
    scenario.idle();
    assertThat(evicted("pod3")).isTrue();
  }

  @Test
  void aRemovedTaintCancelsTheEvictionWithAnEvent() {
    node();
    pod("p", "node1", toleration(1, 1));
    scenario.idle();
    setTaints(1);
    scenario.idle();
    setTaints();
    scenario.idle();
    advance(Duration.ofSeconds(2));
    assertThat(evicted("p")).isFalse();
    assertThat(events()).extracting(e -> Nested.str(e, "message"))
        .containsExactly("Cancelling deletion of Pod ns/p");
  }

  @Test
  void podWithMultipleTolerationsIsEvictedWhenTheFirstRunsOut() {
    node();
    pod("p", "node1", toleration(1, 1), toleration(2, 100));
    scenario.idle();
    setTaints(1, 2);
    scenario.idle();
    assertThat(evicted("p")).isFalse();
    advance(Duration.ofSeconds(1));
    assertThat(evicted("p")).isTrue();
  }

  @Test
  void changingTolerationSecondsKeepsTheEarlierEviction() {
    node(1);
    pod("removed", "node1", toleration(1, 100));
    pod("lengthened", "node1", toleration(1, 1));
    scenario.idle();
    // kube compares against the time already scheduled, so the clock must have moved
    advance(Duration.ofMillis(500));
    MapValue lengthened = pods().get("lengthened");
    pods().update(Nested.set(lengthened, Json.read("[" + toleration(1, 100) + "]"), "spec",
        "tolerations"));
    scenario.idle();
    assertThat(evicted("lengthened")).isFalse();
    advance(Duration.ofMillis(500));
    assertThat(evicted("lengthened")).isTrue();
    // validation keeps a Pod's tolerations (only tolerationSeconds may change), and kube keeps
    // an eviction already scheduled earlier than the new trigger time: shortening to 0 s keeps
    // the eviction at the time the 100 s gave
    MapValue removed = pods().get("removed");
    pods().update(Nested.set(removed, Json.read("[" + toleration(1, 0) + "]"), "spec",
        "tolerations"));
    scenario.idle();
    assertThat(evicted("removed")).isFalse();
    advance(Duration.ofSeconds(98));
    assertThat(evicted("removed")).isFalse();
    advance(Duration.ofSeconds(1));
    assertThat(evicted("removed")).isTrue();
  }

  @Test
  void updateNodeWithMultipleTaints() {
    node();
    pod("p", "node1", "{\"key\":\"testTaint1\",\"operator\":\"Exists\",\"effect\":\"NoExecute\"}",
        "{\"key\":\"testTaint2\",\"operator\":\"Exists\",\"effect\":\"NoExecute\","
            + "\"tolerationSeconds\":60}");
    scenario.idle();
    // no taint -> infinitely tolerated taint: nothing scheduled
    setTaints(1);
    scenario.idle();
    // -> temporarily tolerated taint: scheduled; -> infinitely tolerated again: cancelled
    setTaints(1, 2);
    scenario.idle();
    setTaints(1);
    scenario.idle();
    advance(Duration.ofMinutes(2));
    assertThat(evicted("p")).isFalse();
    assertThat(events()).extracting(e -> Nested.str(e, "message"))
        .containsExactly("Cancelling deletion of Pod ns/p");
  }

  @Test
  void aPodBoundLaterToATaintedNodeIsEvicted() {
    node(1);
    scenario.idle();
    pod("late", "");
    scenario.idle();
    api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace("ns").name("late")
        .subresource("binding").body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Binding\","
            + "\"metadata\":{\"name\":\"late\",\"namespace\":\"ns\"},\"target\":"
            + "{\"kind\":\"Node\",\"name\":\"node1\"}}")).build()).orThrow();
    scenario.idle();
    assertThat(evicted("late")).isTrue();
  }

  @Test
  void aDeletedNodeForgetsItsTaints() {
    node(1);
    scenario.idle();
    api.resources(NODES).delete("node1");
    scenario.idle();
    // a Pod naming the deleted Node is not evicted: no taints are known for it
    pod("orphan", "node1");
    scenario.idle();
    assertThat(evicted("orphan")).isFalse();
    assertThat(events()).isEmpty();
  }
}
