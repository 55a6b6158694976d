/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The daemonset controller on a real server over three Node objects, one tainted
 * {@code dedicated=gpu:NoSchedule}. Pods stay unscheduled (no scheduler): each carries kube's
 * required node affinity on {@code metadata.name}, which is how the controller and these tests
 * tell which Node it belongs to. Expected Pods, tolerations, affinity and status counts are
 * kube's (daemon_controller.go, update.go, pkg/controller/daemon/util).
 */
class DaemonSetScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource DS =
      new GroupVersionResource("apps", "v1", "daemonsets");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    node("node-a", "");
    node("node-b", "");
    node("node-c", "[{\"key\":\"dedicated\",\"value\":\"gpu\",\"effect\":\"NoSchedule\"}]");
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("daemonset,garbagecollector").start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  /**
   * A Node as it is once Ready: the server's NodeTaint plugin creates every Node with
   * {@code node.kubernetes.io/not-ready:NoSchedule}, which daemon Pods do not tolerate (kube's
   * daemon tolerations cover not-ready NoExecute only); the node lifecycle controller replaces
   * it when the kubelet reports Ready, which is what the taint patch here stands for.
   */
  private void node(String name, String taints) {
    api.resources("v1", "nodes").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"kubernetes.io/hostname\":\""
        + name + "\"}}}"));
    api.resources("v1", "nodes").patch(name, PatchType.MERGE_PATCH, "{\"spec\":{\"taints\":"
        + (taints.isEmpty() ? "null" : taints) + "}}");
  }

  private static String daemonSet(String extraSpec, String templateSpec) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"metadata\":{\"name\":"
        + "\"fluentd\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"fluentd\"}}"
        + extraSpec + ",\"template\":{\"metadata\":{\"labels\":{\"app\":\"fluentd\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"fluentd:1\"}]" + templateSpec
        + "}}}}";
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private ResourceClient daemonSets() {
    return api.resources(DS).namespace("ns");
  }

  private java.util.List<String> revisionNames() {
    return api.resources("apps/v1", "controllerrevisions").namespace("ns").list().stream()
        .map(r -> Meta.metaString(r, "name")).toList();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  /** The Node each live Pod is pinned to by its matchFields term, to the Pod's image. */
  private Map<String, String> podsByNode() {
    Map<String, String> out = new TreeMap<>();
    for (MapValue pod : pods().list()) {
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        continue;
      }
      Value values = Nested.getOrNull(Nested.list(Nested.list(pod, "spec", "affinity",
          "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
          "nodeSelectorTerms").get(0), "matchFields").get(0), "values");
      String node = Meta.stringList(values).get(0);
      assertThat(out.put(node, Nested.str(Nested.list(pod, "spec", "containers").get(0),
          "image"))).as("one Pod on %s", node).isNull();
    }
    return out;
  }

  @Test
  void onePodPerEligibleNodeWithKubesAffinityAndTolerations() {
    MapValue ds = daemonSets().create(Json.read(daemonSet("", "")));
    idle();
    assertThat(podsByNode()).containsOnlyKeys("node-a", "node-b");
    MapValue pod = pods().list().get(0);
    assertThat(Meta.metaString(pod, "generateName")).isEqualTo("fluentd-");
    assertThat(Meta.labels(pod)).containsEntry("app", "fluentd")
        .containsKey("controller-revision-hash");
    // kube names the revision ds.Name + "-" + the hash its Pods carry
    assertThat(revisionNames()).containsExactly(
        "fluentd-" + Meta.labels(pod).get("controller-revision-hash"));
    assertThat(Nested.list(pod, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\",\"name\":\"fluentd\",\"uid\":\""
            + Meta.metaString(ds, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    assertThat(Nested.list(pod, "spec", "tolerations").stream()
        .map(t -> Nested.str(t, "key"))).contains("node.kubernetes.io/not-ready",
            "node.kubernetes.io/unreachable", "node.kubernetes.io/disk-pressure",
            "node.kubernetes.io/memory-pressure", "node.kubernetes.io/pid-pressure",
            "node.kubernetes.io/unschedulable");
    assertThat(Nested.str(pod, "spec", "nodeName")).isEmpty();

    MapValue status = Nested.map(daemonSets().get("fluentd"), "status");
    assertThat(status).isEqualTo(Json.read("{\"currentNumberScheduled\":2,"
        + "\"numberMisscheduled\":0,\"desiredNumberScheduled\":2,\"numberReady\":0,"
        + "\"observedGeneration\":1,\"updatedNumberScheduled\":2,\"numberUnavailable\":2}"));

    for (MapValue p : pods().list()) {
      ready(Meta.metaString(p, "name"));
    }
    idle();
    status = Nested.map(daemonSets().get("fluentd"), "status");
    assertThat(Nested.integer(status, "numberReady")).isEqualTo(2);
    assertThat(Nested.integer(status, "numberAvailable")).isEqualTo(2);
    assertThat(Nested.has(status, "numberUnavailable")).isFalse();
  }

  @Test
  void aToleratedTaintAndNewNodesGetPods() {
    daemonSets().create(Json.read(daemonSet("", ",\"tolerations\":[{\"key\":\"dedicated\","
        + "\"operator\":\"Exists\"}]")));
    idle();
    assertThat(podsByNode()).containsOnlyKeys("node-a", "node-b", "node-c");
    node("node-d", "");
    idle();
    assertThat(podsByNode()).containsOnlyKeys("node-a", "node-b", "node-c", "node-d");
  }

  @Test
  void aNodeNoLongerSelectedLosesItsPod() {
    daemonSets().create(Json.read(daemonSet("", ",\"nodeSelector\":{\"role\":\"logs\"}")));
    api.resources("v1", "nodes").patch("node-a", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"role\":\"logs\"}}}");
    idle();
    assertThat(podsByNode()).containsOnlyKeys("node-a");
    api.resources("v1", "nodes").patch("node-a", PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"role\":null}}}");
    idle();
    assertThat(podsByNode()).isEmpty();
    assertThat(Nested.integer(daemonSets().get("fluentd"), "status", "desiredNumberScheduled"))
        .isZero();
  }

  @Test
  void rollingUpdateReplacesOneUnavailableAtATime() {
    daemonSets().create(Json.read(daemonSet("", "")));
    idle();
    readyAll();
    daemonSets().patch("fluentd", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/template/spec/containers/0/image\",\"value\":\"fluentd:2\"}]");
    idle();
    // maxUnavailable 1 (kube's default): one Node replaced, the other waits
    assertThat(podsByNode().values()).containsExactlyInAnyOrder("fluentd:1", "fluentd:2");
    readyAll();
    idle();
    assertThat(podsByNode().values()).containsExactly("fluentd:2", "fluentd:2");
    readyAll();
    idle();
    MapValue status = Nested.map(daemonSets().get("fluentd"), "status");
    assertThat(Nested.integer(status, "updatedNumberScheduled")).isEqualTo(2);
    assertThat(Nested.integer(status, "numberAvailable")).isEqualTo(2);
    assertThat(Nested.integer(status, "observedGeneration")).isEqualTo(2);
    assertThat(api.resources("apps/v1", "controllerrevisions").namespace("ns").list())
        .hasSize(2);
  }

  @Test
  void surgeCreatesTheNewPodBeforeDeletingTheOld() {
    daemonSets().create(Json.read(daemonSet(",\"updateStrategy\":{\"type\":\"RollingUpdate\","
        + "\"rollingUpdate\":{\"maxUnavailable\":0,\"maxSurge\":1}}", "")));
    idle();
    readyAll();
    daemonSets().patch("fluentd", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/template/spec/containers/0/image\",\"value\":\"fluentd:2\"}]");
    idle();
    // one Node runs old and new side by side until the new one is available
    assertThat(pods().list()).hasSize(3);
    readyAll();
    idle();
    readyAll();
    idle();
    readyAll();
    idle();
    assertThat(pods().list().stream().map(p -> Nested.str(Nested.list(p, "spec", "containers")
        .get(0), "image")).toList()).containsExactly("fluentd:2", "fluentd:2");
  }

  @Test
  void onDeleteReplacesOnlyDeletedPods() {
    daemonSets().create(Json.read(daemonSet(",\"updateStrategy\":{\"type\":\"OnDelete\"}", "")));
    idle();
    readyAll();
    daemonSets().patch("fluentd", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/template/spec/containers/0/image\",\"value\":\"fluentd:2\"}]");
    idle();
    assertThat(podsByNode().values()).containsExactly("fluentd:1", "fluentd:1");
    pods().delete(Meta.metaString(pods().list().get(0), "name"));
    idle();
    assertThat(podsByNode().values()).containsExactlyInAnyOrder("fluentd:1", "fluentd:2");
  }

  private void readyAll() {
    for (MapValue p : pods().list()) {
      if (!Nested.str(p, "status", "phase").equals("Running")) {
        ready(Meta.metaString(p, "name"));
      }
    }
  }

  /** What a kubelet writes once the Pod runs and is ready. */
  private void ready(String name) {
    MapValue pod = pods().get(name);
    String time = Meta.formatTime(clock.instant());
    MapValue status = (MapValue) Json.read("{\"phase\":\"Running\",\"conditions\":[{\"type\":"
        + "\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"" + time + "\"}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(pod.with("status", status)).build()).orThrow();
  }

  private List<String> eventMessages(String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals(reason))
        .map(e -> Nested.str(e, "message")).toList();
  }

  @Test
  void createsAndFailedPodsAreKubesEvents() {
    MapValue ds = daemonSets().create(Json.read(daemonSet("", "")));
    idle();
    List<MapValue> created = pods().list();
    // RealPodControl through syncNodes: "Created pod: %v", from the daemonset-controller
    assertThat(eventMessages("SuccessfulCreate")).containsExactlyInAnyOrderElementsOf(
        created.stream().map(p -> "Created pod: " + Meta.metaString(p, "name")).toList());
    MapValue event = api.resources("v1", "events").namespace("ns").list().get(0);
    assertThat(Nested.str(event, "source", "component")).isEqualTo("daemonset-controller");
    assertThat(Nested.str(event, "involvedObject", "kind")).isEqualTo("DaemonSet");
    assertThat(Nested.str(event, "involvedObject", "uid")).isEqualTo(Meta.metaString(ds, "uid"));
    MapValue pod = created.get(0);
    String node = Meta.stringList(Nested.getOrNull(Nested.list(Nested.list(pod, "spec",
        "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution",
        "nodeSelectorTerms").get(0), "matchFields").get(0), "values")).get(0);
    String name = Meta.metaString(pod, "name");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(pods().get(name).with("status", Json.read("{\"phase\":\"Failed\"}"))).build())
        .orThrow();
    idle();
    // podsShouldBeOnNode
    assertThat(eventMessages("FailedDaemonPod")).containsExactly(
        "Found failed daemon pod ns/" + name + " on node " + node + ", will try to kill it");
    assertThat(eventMessages("SuccessfulDelete")).containsExactly("Deleted pod: " + name);
  }
}
