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
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A server, the replicaset controller and a simulated cluster on a test clock: workloads are
 * scheduled, run and end as in a cluster. Expected messages and statuses are kube's
 * (kube-scheduler's FitError and events, kubelet's pod status and conditions).
 */
class ClusterScenarioTest {
  private ClusterFixture f;

  @AfterEach
  void stop() {
    if (f != null) {
      f.close();
    }
  }

  private static String pod(String name, String spec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"ns\"},\"spec\":" + spec + "}";
  }

  private static String conditionStatus(MapValue pod, String type) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return Nested.str(c, "status");
      }
    }
    return "";
  }

  private static MapValue condition(MapValue pod, String type) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals(type)) {
        return (MapValue) c;
      }
    }
    throw new AssertionError("no condition " + type + " in " + pod);
  }

  @Test
  void aReplicaSetOfThreeBecomesThreeRunningReadyPodsOnThreeNodes() {
    f = new ClusterFixture(b -> b, "replicaset");
    f.api.resources("apps/v1", "replicasets").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\","
            + "\"namespace\":\"ns\"},\"spec\":{\"replicas\":3,\"selector\":{\"matchLabels\":"
            + "{\"app\":\"web\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}"));
    f.idle();
    List<MapValue> pods = f.pods().list();
    assertThat(pods).hasSize(3);
    assertThat(pods.stream().map(p -> Nested.str(p, "spec", "nodeName"))
        .collect(Collectors.toSet())).isEqualTo(Set.of("node-1", "node-2", "node-3"));
    for (MapValue p : pods) {
      assertThat(Nested.str(p, "status", "phase")).isEqualTo("Running");
      List<String> types = Nested.list(p, "status", "conditions").stream()
          .map(c -> Nested.str(c, "type")).toList();
      assertThat(types).containsExactly("PodReadyToStartContainers", "Initialized", "Ready",
          "ContainersReady", "PodScheduled");
      assertThat(Nested.list(p, "status", "conditions"))
          .allSatisfy(c -> assertThat(Nested.str(c, "status")).isEqualTo("True"));
      String node = Nested.str(p, "spec", "nodeName");
      int index = Integer.parseInt(node.substring("node-".length())) - 1;
      assertThat(Nested.str(p, "status", "hostIP")).isEqualTo("172.18.0." + (index + 2));
      assertThat(Nested.str(p, "status", "podIP")).isEqualTo("10.244." + index + ".2");
      assertThat(Nested.list(p, "status", "podIPs"))
          .containsExactly(Json.read("{\"ip\":\"10.244." + index + ".2\"}"));
      assertThat(Nested.str(p, "status", "startTime")).isEqualTo("2026-01-01T00:00:00Z");
      MapValue cs = (MapValue) Nested.list(p, "status", "containerStatuses").get(0);
      assertThat(Nested.str(cs, "name")).isEqualTo("nginx");
      assertThat(Nested.bool(cs, "ready")).isTrue();
      assertThat(Nested.bool(cs, "started")).isTrue();
      assertThat(Nested.integer(cs, "restartCount")).isZero();
      assertThat(Nested.str(cs, "image")).isEqualTo("docker.io/library/nginx:latest");
      assertThat(Nested.str(cs, "imageID"))
          .matches("docker\\.io/library/nginx@sha256:[0-9a-f]{64}");
      assertThat(Nested.str(cs, "containerID")).matches("containerd://[0-9a-f]{64}");
      assertThat(Nested.str(cs, "state", "running", "startedAt"))
          .isEqualTo("2026-01-01T00:00:00Z");
      List<MapValue> events = f.events("ns").stream()
          .filter(e -> Nested.str(e, "regarding", "name").equals(Meta.metaString(p, "name")))
          .toList();
      assertThat(events).extracting(e -> Nested.str(e, "reason")).containsExactly("Scheduled");
      assertThat(Nested.str(events.get(0), "note")).isEqualTo("Successfully assigned ns/"
          + Meta.metaString(p, "name") + " to " + node);
      assertThat(Nested.str(events.get(0), "reportingController"))
          .isEqualTo("default-scheduler");
      assertThat(Nested.str(events.get(0), "action")).isEqualTo("Binding");
    }
    MapValue rs = f.api.resources("apps/v1", "replicasets").namespace("ns").get("web");
    assertThat(Nested.integer(rs, "status", "readyReplicas")).isEqualTo(3);
    assertThat(Nested.integer(rs, "status", "availableReplicas")).isEqualTo(3);
  }

  @Test
  void anUnschedulablePodGetsKubesConditionMessageAndEvent() {
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("node-1").build(), NodeConfig.builder("node-2").build(),
        NodeConfig.builder("tainted").taint("dedicated", "gpu", "NoSchedule").build())), "");
    // the Nodes are Ready and untainted first, so the Pod is tried once
    f.idle();
    f.createPod(pod("huge", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
        + "\"resources\":{\"requests\":{\"cpu\":\"8\"}}}]}"));
    f.idle();
    MapValue p = f.pods().get("huge");
    assertThat(Nested.str(p, "spec", "nodeName")).isEmpty();
    assertThat(Nested.str(p, "status", "phase")).isEqualTo("Pending");
    MapValue scheduled = condition(p, "PodScheduled");
    String message;
    // 8 CPUs exceed every Node's 4 allocatable: unresolvable, so preemption cannot help anywhere
    message = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu."
        + " no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is"
        + " not helpful for scheduling.";
    assertThat(Nested.str(scheduled, "status")).isEqualTo("False");
    assertThat(Nested.str(scheduled, "reason")).isEqualTo("Unschedulable");
    assertThat(Nested.str(scheduled, "message")).isEqualTo(message);
    List<MapValue> events = f.events("ns");
    assertThat(events).extracting(e -> Nested.str(e, "reason"))
        .containsExactly("FailedScheduling");
    assertThat(Nested.str(events.get(0), "type")).isEqualTo("Warning");
    assertThat(Nested.str(events.get(0), "note")).isEqualTo(message);
    assertThat(Nested.str(events.get(0), "action")).isEqualTo("Scheduling");
  }

  @Test
  void aNodeThatFreesUpTakesTheWaitingPod() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.createPod(pod("first", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
        + "\"resources\":{\"requests\":{\"cpu\":\"3\"}}}]}"));
    f.idle();
    f.createPod(pod("second", "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\","
        + "\"resources\":{\"requests\":{\"cpu\":\"3\"}}}]}"));
    f.idle();
    assertThat(Nested.str(condition(f.pods().get("second"), "PodScheduled"), "message"))
        .isEqualTo("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate,"
            + " preemption: 0/1 nodes are available: 1 No preemption victims found for incoming"
            + " pod.");
    // the default 30 s grace period: the kubelet removes the Pod once the clock has passed it
    f.pods().delete("first");
    f.advance(Duration.ofSeconds(30));
    assertThat(f.pods().find("first")).isEmpty();
    MapValue second = f.pods().get("second");
    assertThat(Nested.str(second, "spec", "nodeName")).isEqualTo("node-1");
    assertThat(Nested.str(second, "status", "phase")).isEqualTo("Running");
  }

  @Test
  void aTaintedNodeIsAvoidedAndATolerationLetsAPodOnIt() {
    f = new ClusterFixture(b -> b.nodes(List.of(
        NodeConfig.builder("tainted").taint("dedicated", "gpu", "NoSchedule").build(),
        NodeConfig.builder("plain").build())), "");
    for (int i = 0; i < 3; i++) {
      f.createPod(pod("p" + i, "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    }
    f.createPod(pod("tolerant", "{\"nodeSelector\":{\"kubernetes.io/hostname\":\"tainted\"},"
        + "\"tolerations\":[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"gpu\","
        + "\"effect\":\"NoSchedule\"}],\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    f.idle();
    for (int i = 0; i < 3; i++) {
      assertThat(Nested.str(f.pods().get("p" + i), "spec", "nodeName")).isEqualTo("plain");
    }
    assertThat(Nested.str(f.pods().get("tolerant"), "spec", "nodeName")).isEqualTo("tainted");
  }

  @Test
  void aRunToCompletionPodSucceedsAfterItsDurationOnTheClock() {
    f = new ClusterFixture(b -> b.nodes(1).runDuration(Duration.ofSeconds(30)), "");
    f.createPod(pod("job", "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
        + "\"image\":\"busybox:1.36\"}]}"));
    f.idle();
    MapValue running = f.pods().get("job");
    assertThat(Nested.str(running, "status", "phase")).isEqualTo("Running");
    f.advance(Duration.ofSeconds(29));
    assertThat(Nested.str(f.pods().get("job"), "status", "phase")).isEqualTo("Running");
    f.advance(Duration.ofSeconds(1));
    MapValue done = f.pods().get("job");
    assertThat(Nested.str(done, "status", "phase")).isEqualTo("Succeeded");
    MapValue cs = (MapValue) Nested.list(done, "status", "containerStatuses").get(0);
    assertThat(Nested.map(cs, "state", "terminated")).isEqualTo(Json.read("{\"exitCode\":0,"
        + "\"reason\":\"Completed\",\"startedAt\":\"2026-01-01T00:00:00Z\",\"finishedAt\":"
        + "\"2026-01-01T00:00:30Z\",\"containerID\":\"" + Nested.str(cs, "containerID")
        + "\"}"));
    assertThat(Nested.bool(cs, "ready")).isFalse();
    assertThat(Nested.str(cs, "image")).isEqualTo("docker.io/library/busybox:1.36");
    assertThat(Nested.str(condition(done, "Ready"), "reason")).isEqualTo("PodCompleted");
    assertThat(conditionStatus(done, "Ready")).isEqualTo("False");
    assertThat(Nested.str(condition(done, "ContainersReady"), "reason"))
        .isEqualTo("PodCompleted");
    assertThat(conditionStatus(done, "PodReadyToStartContainers")).isEqualTo("False");
  }

  @Test
  void anExitCodeAnnotationFailsThePodAfterItsOwnDuration() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.createPod("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"bad\","
        + "\"namespace\":\"ns\",\"annotations\":{\"" + PodSimulation.EXIT_CODE + "\":\"3\",\""
        + PodSimulation.RUN_DURATION + "\":\"1m\"}},\"spec\":{\"restartPolicy\":\"OnFailure\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
    f.idle();
    f.advance(Duration.ofMinutes(1));
    MapValue bad = f.pods().get("bad");
    assertThat(Nested.str(bad, "status", "phase")).isEqualTo("Failed");
    MapValue cs = (MapValue) Nested.list(bad, "status", "containerStatuses").get(0);
    assertThat(Nested.integer(cs, "state", "terminated", "exitCode")).isEqualTo(3);
    assertThat(Nested.str(cs, "state", "terminated", "reason")).isEqualTo("Error");
    assertThat(Nested.str(condition(bad, "Ready"), "reason")).isEqualTo("PodFailed");
    assertThat(Nested.str(condition(bad, "ContainersReady"), "message"))
        .isEqualTo("containers with unready status: [c]");
  }

  @Test
  void aDeletedPodIsRemovedAfterItsGracePeriodOnTheClock() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.createPod(pod("p", "{\"terminationGracePeriodSeconds\":30,\"containers\":[{\"name\":\"c\","
        + "\"image\":\"nginx\"}]}"));
    f.idle();
    f.pods().delete("p");
    f.idle();
    assertThat(f.pods().find("p")).isPresent();
    f.advance(Duration.ofSeconds(29));
    assertThat(f.pods().find("p")).isPresent();
    f.advance(Duration.ofSeconds(1));
    assertThat(f.pods().find("p")).isEmpty();
  }

  @Test
  void readinessGatesHoldReadyUntilTheirConditionIsTrue() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.createPod(pod("gated", "{\"readinessGates\":[{\"conditionType\":\"example.com/lb\"}],"
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    f.idle();
    MapValue p = f.pods().get("gated");
    assertThat(conditionStatus(p, "ContainersReady")).isEqualTo("True");
    assertThat(condition(p, "Ready")).satisfies(c -> {
      assertThat(Nested.str(c, "status")).isEqualTo("False");
      assertThat(Nested.str(c, "reason")).isEqualTo("ReadinessGatesNotReady");
      assertThat(Nested.str(c, "message")).isEqualTo("corresponding condition of pod readiness"
          + " gate \"example.com/lb\" does not exist.");
    });
    MapValue withGate = Nested.set(p, io.apiserver4j.core.ListValue.of(
        new java.util.ArrayList<>(Nested.list(p, "status", "conditions")) {
          {
            add(Json.read("{\"type\":\"example.com/lb\",\"status\":\"True\"}"));
          }
        }), "status", "conditions");
    f.api.handle(io.apiserver4j.apiserver.ApiRequest.builder(
        io.apiserver4j.apiserver.ApiRequest.Verb.UPDATE, ClusterFixture.PODS).namespace("ns")
        .name("gated").subresource("status")
        .options(io.apiserver4j.apiserver.UpdateOptions.defaults()).body(withGate).build())
        .orThrow();
    f.idle();
    assertThat(conditionStatus(f.pods().get("gated"), "Ready")).isEqualTo("True");
  }

  @Test
  void initContainersCompleteAndSidecarsRun() {
    f = new ClusterFixture(b -> b.nodes(1), "");
    f.createPod(pod("init", "{\"initContainers\":[{\"name\":\"setup\",\"image\":\"busybox\"},"
        + "{\"name\":\"proxy\",\"image\":\"envoyproxy/envoy:v1.30\",\"restartPolicy\":"
        + "\"Always\"}],\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}"));
    f.idle();
    List<Value> inits = Nested.list(f.pods().get("init"), "status", "initContainerStatuses");
    assertThat(inits).extracting(s -> Nested.str(s, "name")).containsExactly("setup", "proxy");
    assertThat(Nested.str(inits.get(0), "state", "terminated", "reason")).isEqualTo("Completed");
    assertThat(Nested.bool(inits.get(0), "ready")).isTrue();
    assertThat(Nested.has(inits.get(1), "state", "running")).isTrue();
    assertThat(Nested.str(inits.get(1), "image"))
        .isEqualTo("docker.io/envoyproxy/envoy:v1.30");
  }
}
