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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The replicaset and replicationcontroller controllers through the public API: writes through
 * the server, then the state once the controllers are idle. Expected names, labels, owner
 * references, deletion order and status are kube's (pkg/controller/replicaset, its
 * {@code ActivePodsWithRanks} and {@code ControllerRefManager}).
 */
class ReplicaSetScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource RS =
      new GroupVersionResource("apps", "v1", "replicasets");
  /** kube's generateName alphabet, 5 characters after the prefix. */
  private static final String SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}";

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("replicaset,replicationcontroller");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private static String replicaSet(String name, int replicas, String extra) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"" + name
        + "\",\"namespace\":\"ns\"},\"spec\":{\"replicas\":" + replicas + extra
        + ",\"selector\":{\"matchLabels\":{\"app\":\"web\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"app\":\"web\",\"tier\":\"front\"},\"annotations\":{\"a\":\"b\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}";
  }

  @Test
  void replicaSetOfThreeGetsThreePodsNamedAndLabelledAsKube() {
    MapValue rs = api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 3, "")));
    scenario.idle();
    List<MapValue> pods = pods().list();
    assertThat(pods).hasSize(3);
    for (MapValue p : pods) {
      assertThat(Meta.metaString(p, "name")).matches("web-" + SUFFIX);
      assertThat(Meta.metaString(p, "generateName")).isEqualTo("web-");
      assertThat(Meta.labels(p)).containsExactlyInAnyOrderEntriesOf(
          java.util.Map.of("app", "web", "tier", "front"));
      assertThat(Meta.annotations(p)).containsEntry("a", "b");
      assertThat(Nested.list(p, "metadata", "ownerReferences")).containsExactly(Json.read(
          "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"name\":\"web\",\"uid\":\""
              + Meta.metaString(rs, "uid") + "\",\"controller\":true,"
              + "\"blockOwnerDeletion\":true}"));
      assertThat(Nested.str(Nested.list(p, "spec", "containers").get(0), "image"))
          .isEqualTo("nginx");
    }
    MapValue status = Nested.map(api.resources(RS).namespace("ns").get("web"), "status");
    // no Pod is ready: kube omits the zero counts
    assertThat(status).isEqualTo(Json.read(
        "{\"replicas\":3,\"fullyLabeledReplicas\":3,\"observedGeneration\":1}"));
  }

  @Test
  void scalingDownDeletesInKubesOrder() {
    // the same labels as the template, so each is adopted; states from kube's ranking rules
    pod("running-ready", "node-a", "Running", true, 0);
    pod("unscheduled", "", "Pending", false, 0);
    pod("running-not-ready", "node-a", "Running", false, 0);
    pod("unknown", "node-b", "Unknown", false, 0);
    pod("pending", "node-b", "Pending", false, 0);
    pod("ready-restarted", "node-a", "Running", true, 3);
    api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 6, "")));
    scenario.idle();
    assertThat(names()).hasSize(6);
    // unscheduled < pending < unknown < running not ready < ready (more restarts first)
    List<String> expected = List.of("unscheduled", "pending", "unknown", "running-not-ready",
        "ready-restarted", "running-ready");
    for (int replicas = 5; replicas >= 1; replicas--) {
      api.resources(RS).namespace("ns").patch("web", PatchType.MERGE_PATCH,
          "{\"spec\":{\"replicas\":" + replicas + "}}");
      scenario.idle();
      assertThat(names()).as("replicas %d", replicas)
          .containsExactlyInAnyOrderElementsOf(expected.subList(6 - replicas, 6));
    }
    MapValue status = Nested.map(api.resources(RS).namespace("ns").get("web"), "status");
    assertThat(Nested.integer(status, "replicas")).isEqualTo(1);
    assertThat(Nested.integer(status, "readyReplicas")).isEqualTo(1);
    assertThat(Nested.integer(status, "availableReplicas")).isEqualTo(1);
    assertThat(Nested.integer(status, "observedGeneration")).isEqualTo(6);
  }

  @Test
  void orphansMatchingTheSelectorAreAdoptedAndNonMatchingOnesReleased() {
    pod("orphan", "", "Pending", false, 0);
    MapValue other = pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"other\",\"labels\":{\"app\":\"db\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
    MapValue rs = api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 2, "")));
    scenario.idle();
    MapValue orphan = pods().get("orphan");
    assertThat(Nested.str(Nested.list(orphan, "metadata", "ownerReferences").get(0), "uid"))
        .isEqualTo(Meta.metaString(rs, "uid"));
    assertThat(Nested.list(pods().get("other"), "metadata", "ownerReferences")).isEmpty();
    assertThat(names()).hasSize(3).contains("orphan", "other");
    // relabelled out of the selector: released, and replaced
    pods().patch("orphan", PatchType.MERGE_PATCH, "{\"metadata\":{\"labels\":{\"app\":\"x\"}}}");
    scenario.idle();
    assertThat(Nested.list(pods().get("orphan"), "metadata", "ownerReferences")).isEmpty();
    assertThat(names()).hasSize(4);
    assertThat(Meta.metaString(other, "name")).isEqualTo("other");
  }

  @Test
  void availableWaitsForMinReadySecondsOnTheServerClock() {
    pod("a", "node-a", "Running", true, 0);
    api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 1,
        ",\"minReadySeconds\":30")));
    scenario.idle();
    MapValue status = Nested.map(api.resources(RS).namespace("ns").get("web"), "status");
    assertThat(Nested.integer(status, "readyReplicas")).isEqualTo(1);
    assertThat(Nested.has(status, "availableReplicas")).isFalse();
    clock.set(clock.instant().plusSeconds(31));
    scenario.idle();
    status = Nested.map(api.resources(RS).namespace("ns").get("web"), "status");
    assertThat(Nested.integer(status, "availableReplicas")).isEqualTo(1);
  }

  @Test
  void replicationControllerRunsThroughTheSameController() {
    MapValue rc = api.resources("v1", "replicationcontrollers").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\",\"metadata\":{\"name\":"
            + "\"rc\"},\"spec\":{\"replicas\":2,\"selector\":{\"app\":\"rc\"},\"template\":"
            + "{\"metadata\":{\"labels\":{\"app\":\"rc\"}},\"spec\":{\"containers\":"
            + "[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}"));
    scenario.idle();
    List<MapValue> pods = pods().list();
    assertThat(pods).hasSize(2);
    for (MapValue p : pods) {
      assertThat(Meta.metaString(p, "name")).matches("rc-" + SUFFIX);
      MapValue ref = (MapValue) Nested.list(p, "metadata", "ownerReferences").get(0);
      assertThat(Nested.str(ref, "apiVersion")).isEqualTo("v1");
      assertThat(Nested.str(ref, "kind")).isEqualTo("ReplicationController");
      assertThat(Nested.str(ref, "uid")).isEqualTo(Meta.metaString(rc, "uid"));
    }
    assertThat(Nested.integer(api.resources("v1", "replicationcontrollers").namespace("ns")
        .get("rc"), "status", "replicas")).isEqualTo(2);
  }

  @Test
  void createsAndDeletesAreRecordedAsKubesEvents() {
    MapValue rs = api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 2, "")));
    scenario.idle();
    List<String> created = pods().list().stream().map(p -> Meta.metaString(p, "name")).toList();
    // kube's RealPodControl: "Created pod: <name>", Normal, from the replicaset-controller
    assertThat(events("SuccessfulCreate")).extracting(e -> Nested.str(e, "message"))
        .containsExactlyInAnyOrderElementsOf(created.stream().map(n -> "Created pod: " + n)
            .toList());
    for (MapValue e : events("SuccessfulCreate")) {
      assertThat(Nested.str(e, "type")).isEqualTo("Normal");
      assertThat(Nested.str(e, "source", "component")).isEqualTo("replicaset-controller");
      assertThat(Nested.str(e, "involvedObject", "kind")).isEqualTo("ReplicaSet");
      assertThat(Nested.str(e, "involvedObject", "apiVersion")).isEqualTo("apps/v1");
      assertThat(Nested.str(e, "involvedObject", "name")).isEqualTo("web");
      assertThat(Nested.str(e, "involvedObject", "uid")).isEqualTo(Meta.metaString(rs, "uid"));
      assertThat(Meta.metaString(e, "name")).startsWith("web.");
    }
    api.resources(RS).namespace("ns").patch("web", PatchType.MERGE_PATCH,
        "{\"spec\":{\"replicas\":1}}");
    scenario.idle();
    List<String> left = names();
    assertThat(left).hasSize(1);
    String deleted = created.stream().filter(n -> !left.contains(n)).findFirst().orElseThrow();
    assertThat(events("SuccessfulDelete")).extracting(e -> Nested.str(e, "message"))
        .containsExactly("Deleted pod: " + deleted);
  }

  @Test
  void aRefusedPodIsAFailedCreateWarning() {
    // LimitRanger refuses the template's limit: kube's "Error creating: <the error>"
    api.resources("v1", "limitranges").namespace("ns").create(Json.read("{\"apiVersion\":"
        + "\"v1\",\"kind\":\"LimitRange\",\"metadata\":{\"name\":\"max\"},\"spec\":{\"limits\""
        + ":[{\"type\":\"Container\",\"max\":{\"cpu\":\"100m\"}}]}}"));
    api.resources(RS).namespace("ns").create(Json.read(replicaSet("web", 1, "").replace(
        "\"image\":\"nginx\"", "\"image\":\"nginx\",\"resources\":{\"limits\":{\"cpu\":\"1\"}}")));
    scenario.idle();
    assertThat(pods().list()).isEmpty();
    List<MapValue> failed = events("FailedCreate");
    assertThat(failed).isNotEmpty();
    for (MapValue e : failed) {
      assertThat(Nested.str(e, "type")).isEqualTo("Warning");
      assertThat(Nested.str(e, "message")).startsWith("Error creating: pods ")
          .contains("forbidden: maximum cpu usage per Container is 100m, but limit is 1");
    }
  }

  private List<MapValue> events(String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals(reason)).toList();
  }

  /** The Pods not being deleted (a Pod on a node is deleted gracefully, as kube). */
  private List<String> names() {
    return pods().list().stream().filter(p -> !Nested.has(p, "metadata", "deletionTimestamp"))
        .map(p -> Meta.metaString(p, "name")).toList();
  }

  /** An orphan Pod labelled app=web in the given state, ready since the clock's now. */
  private void pod(String name, String node, String phase, boolean ready, int restarts) {
    String nodeName = node.isEmpty() ? "" : ",\"nodeName\":\"" + node + "\"";
    MapValue created = pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\"web\",\"tier\":"
        + "\"front\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]" + nodeName
        + "}}"));
    String time = Meta.formatTime(clock.instant());
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\",\"conditions\":"
        + "[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False")
        + "\",\"lastTransitionTime\":\"" + time + "\"}],\"containerStatuses\":[{\"name\":\"c\","
        + "\"image\":\"x\",\"imageID\":\"\",\"ready\":" + ready + ",\"restartCount\":" + restarts
        + ",\"state\":{}}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(created.with("status", status)).build()).orThrow();
  }
}
