/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The deployment controller with the replicaset controller and the garbage collector, through
 * the public API: writes through the server, Pods made ready through {@code pods/status} as a
 * kubelet would, then the state once the controllers are idle. Expected names, labels,
 * annotations, sizes and conditions are kube's (pkg/controller/deployment: sync.go, rolling.go,
 * recreate.go, progress.go, util/deployment_util.go; kubectl's rollout undo).
 */
class DeploymentScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource RS =
      new GroupVersionResource("apps", "v1", "replicasets");
  private static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  /** kube's rand.SafeEncodeString alphabet, which the pod-template-hash is written in. */
  private static final String HASH = "[bcdfghjklmnpqrstvwxz2456789]+";
  /** kube's generateName alphabet, 5 characters after the prefix. */
  private static final String SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}";
  /** The annotations kubectl rollout undo keeps from the Deployment (kubectl's skip list). */
  private static final Set<String> SKIPPED = Set.of(
      "kubectl.kubernetes.io/last-applied-configuration", "deployment.kubernetes.io/revision",
      "deployment.kubernetes.io/revision-history", "deployment.kubernetes.io/desired-replicas",
      "deployment.kubernetes.io/max-replicas", "deprecated.deployment.rollback.to");

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
    controllers = ControllerManager.builder(api).clock(clock)
        .controllers("deployment,replicaset,garbagecollector").start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private ResourceClient sets() {
    return api.resources(RS).namespace("ns");
  }

  private ResourceClient deployments() {
    return api.resources(DEPLOYMENTS).namespace("ns");
  }

  private static String deployment(int replicas, String image, String extraSpec) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\","
        + "\"namespace\":\"ns\",\"annotations\":{\"team\":\"a\"}},\"spec\":{\"replicas\":"
        + replicas + extraSpec + ",\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":"
        + "[{\"name\":\"c\",\"image\":\"" + image + "\"}]}}}}";
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  /** Moves the server clock on, so that sets created next are newer (kube orders by age). */
  private void tick() {
    clock.set(clock.instant().plusSeconds(10));
  }

  @Test
  void deploymentOfThreeGetsOneReplicaSetAndThreePodsNamedAsKube() {
    MapValue d = deployments().create(Json.read(deployment(3, "nginx:1", "")));
    idle();
    List<MapValue> rss = sets().list();
    assertThat(rss).hasSize(1);
    MapValue rs = rss.get(0);
    String hash = Meta.labels(rs).get("pod-template-hash");
    assertThat(hash).matches(HASH);
    assertThat(Meta.metaString(rs, "name")).isEqualTo("web-" + hash);
    assertThat(Meta.labels(rs)).containsExactlyInAnyOrderEntriesOf(
        Map.of("app", "web", "pod-template-hash", hash));
    assertThat(Nested.map(rs, "spec", "selector")).isEqualTo(Json.read(
        "{\"matchLabels\":{\"app\":\"web\",\"pod-template-hash\":\"" + hash + "\"}}"));
    assertThat(Meta.labels(Nested.map(rs, "spec", "template"))).containsExactlyInAnyOrderEntriesOf(
        Map.of("app", "web", "pod-template-hash", hash));
    // the Deployment's own annotations are copied; 25% of 3 surges by 1
    assertThat(Meta.annotations(rs)).containsExactlyInAnyOrderEntriesOf(Map.of("team", "a",
        "deployment.kubernetes.io/revision", "1",
        "deployment.kubernetes.io/desired-replicas", "3",
        "deployment.kubernetes.io/max-replicas", "4"));
    assertThat(Nested.list(rs, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"web\",\"uid\":\""
            + Meta.metaString(d, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    assertThat(Nested.integer(rs, "spec", "replicas")).isEqualTo(3);
    List<MapValue> pods = pods().list();
    assertThat(pods).hasSize(3);
    for (MapValue p : pods) {
      assertThat(Meta.metaString(p, "name")).matches("web-" + hash + "-" + SUFFIX);
      assertThat(Meta.labels(p)).containsExactlyInAnyOrderEntriesOf(
          Map.of("app", "web", "pod-template-hash", hash));
    }
    MapValue deployment = deployments().get("web");
    assertThat(Meta.annotations(deployment))
        .containsEntry("deployment.kubernetes.io/revision", "1");
    MapValue status = Nested.map(deployment, "status");
    assertThat(Nested.integer(status, "observedGeneration")).isEqualTo(1);
    assertThat(Nested.integer(status, "replicas")).isEqualTo(3);
    assertThat(Nested.integer(status, "updatedReplicas")).isEqualTo(3);
    assertThat(Nested.integer(status, "unavailableReplicas")).isEqualTo(3);
    assertThat(Nested.has(status, "availableReplicas")).isFalse();
    assertCondition(status, "Available", "False", "MinimumReplicasUnavailable",
        "Deployment does not have minimum availability.");
    assertCondition(status, "Progressing", "True", "ReplicaSetUpdated",
        "ReplicaSet \"web-" + hash + "\" is progressing.");

    readyAll();
    status = Nested.map(deployments().get("web"), "status");
    assertThat(Nested.integer(status, "availableReplicas")).isEqualTo(3);
    assertThat(Nested.integer(status, "readyReplicas")).isEqualTo(3);
    assertThat(Nested.has(status, "unavailableReplicas")).isFalse();
    assertCondition(status, "Available", "True", "MinimumReplicasAvailable",
        "Deployment has minimum availability.");
    assertCondition(status, "Progressing", "True", "NewReplicaSetAvailable",
        "ReplicaSet \"web-" + hash + "\" has successfully progressed.");
  }

  @Test
  void imageChangeRollsWithinMaxSurgeAndMaxUnavailable() {
    deployments().create(Json.read(deployment(3, "nginx:1", "")));
    idle();
    readyAll();
    String first = onlySet().name();
    tick();
    setImage("nginx:2");
    idle();
    // maxSurge 25% of 3 rounds up to 1, maxUnavailable rounds down to 0
    String second = sets().list().stream().map(s -> Meta.metaString(s, "name"))
        .filter(n -> !n.equals(first)).findFirst().orElseThrow();
    assertThat(sizes()).isEqualTo(Map.of(first, 3L, second, 1L));
    assertThat(Meta.annotations(sets().get(second)))
        .containsEntry("deployment.kubernetes.io/revision", "2");
    assertThat(Meta.annotations(deployments().get("web")))
        .containsEntry("deployment.kubernetes.io/revision", "2");
    MapValue status = Nested.map(deployments().get("web"), "status");
    assertCondition(status, "Progressing", "True", "ReplicaSetUpdated",
        "ReplicaSet \"" + second + "\" is progressing.");
    // each Pod of the new set that becomes ready lets one old Pod go and one new one come
    long[][] expected = {{2, 2}, {1, 3}, {0, 3}};
    for (long[] step : expected) {
      readyAll();
      assertThat(sizes()).as("after a new Pod became ready")
          .isEqualTo(Map.of(first, step[0], second, step[1]));
      assertThat(activePods()).isLessThanOrEqualTo(4);
    }
    status = Nested.map(deployments().get("web"), "status");
    assertThat(Nested.integer(status, "updatedReplicas")).isEqualTo(3);
    assertThat(Nested.integer(status, "availableReplicas")).isEqualTo(3);
    assertCondition(status, "Progressing", "True", "NewReplicaSetAvailable",
        "ReplicaSet \"" + second + "\" has successfully progressed.");
  }

  @Test
  void rolloutUndoReusesTheOldReplicaSetAndBumpsItsRevision() {
    deployments().create(Json.read(deployment(2, "nginx:1", "")));
    idle();
    readyAll();
    String first = onlySet().name();
    tick();
    setImage("nginx:2");
    rollToTheEnd();
    // kubectl rollout undo: the previous revision's template and annotations, patched in
    MapValue old = sets().get(first);
    MapValue template = Nested.map(old, "spec", "template");
    Map<String, String> labels = new LinkedHashMap<>(Meta.labels(template));
    labels.remove("pod-template-hash");
    MapValue.Builder lb = MapValue.builder();
    labels.forEach((k, v) -> lb.put(k, Value.of(v)));
    template = Nested.set(template, lb.build(), "metadata", "labels");
    MapValue.Builder annotations = MapValue.builder();
    Meta.annotations(deployments().get("web")).forEach((k, v) -> {
      if (SKIPPED.contains(k)) {
        annotations.put(k, Value.of(v));
      }
    });
    Meta.annotations(old).forEach((k, v) -> {
      if (!SKIPPED.contains(k)) {
        annotations.put(k, Value.of(v));
      }
    });
    ListValue patch = ListValue.of(List.of(
        MapValue.ofEntries("op", Value.of("replace"), "path", Value.of("/spec/template"),
            "value", template),
        MapValue.ofEntries("op", Value.of("replace"), "path", Value.of("/metadata/annotations"),
            "value", annotations.build())));
    tick();
    deployments().patch("web", PatchType.JSON_PATCH, Json.write(patch));
    rollToTheEnd();
    assertThat(sets().list()).hasSize(2);
    MapValue reused = sets().get(first);
    assertThat(Nested.integer(reused, "spec", "replicas")).isEqualTo(2);
    assertThat(Meta.annotations(reused)).containsEntry("deployment.kubernetes.io/revision", "3")
        .containsEntry("deployment.kubernetes.io/revision-history", "1");
    assertThat(Meta.annotations(deployments().get("web")))
        .containsEntry("deployment.kubernetes.io/revision", "3");
    assertThat(sizes().values()).containsExactlyInAnyOrder(2L, 0L);
  }

  @Test
  void pausedDeploymentScalesButDoesNotRollOut() {
    deployments().create(Json.read(deployment(2, "nginx:1", "")));
    idle();
    readyAll();
    String first = onlySet().name();
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"paused\":true}}");
    idle();
    assertCondition(Nested.map(deployments().get("web"), "status"), "Progressing", "Unknown",
        "DeploymentPaused", "Deployment is paused");
    tick();
    setImage("nginx:2");
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":4}}");
    idle();
    assertThat(sizes()).isEqualTo(Map.of(first, 4L));
    assertThat(Meta.annotations(sets().get(first)))
        .containsEntry("deployment.kubernetes.io/desired-replicas", "4")
        .containsEntry("deployment.kubernetes.io/max-replicas", "5");
    assertThat(Nested.integer(deployments().get("web"), "status", "observedGeneration"))
        .isEqualTo(Meta.generation(deployments().get("web")));

    deployments().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"paused\":false}}");
    idle();
    assertThat(sets().list()).hasSize(2);
    rollToTheEnd();
    assertThat(sizes().get(first)).isZero();
    assertThat(sizes().values()).containsExactlyInAnyOrder(4L, 0L);
  }

  @Test
  void scalingDuringARolloutIsProportional() {
    // kube's TestScale "proportional scaling": 10 replicas, surge 3 (25% rounded up), then 20
    deployments().create(Json.read(deployment(10, "nginx:1", "")));
    idle();
    readyAll();
    String first = onlySet().name();
    tick();
    setImage("nginx:2");
    idle();
    String second = sets().list().stream().map(s -> Meta.metaString(s, "name"))
        .filter(n -> !n.equals(first)).findFirst().orElseThrow();
    // 13 allowed, 2 unavailable allowed: the new set starts at 3, the old one (10 available)
    // goes to 8, and the new one takes the room left: 5
    Map<String, Long> before = sizes();
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":20}}");
    idle();
    // 20 + 5 surge = 25 replicas, shared in proportion to the 13 (max-replicas) before, as
    // kube's TestScale "change both surge and size": round(8 * 25 / 13) and the rest
    assertThat(before).isEqualTo(Map.of(first, 8L, second, 5L));
    Map<String, Long> after = sizes();
    assertThat(after).isEqualTo(Map.of(first, 15L, second, 10L));
    for (String n : List.of(first, second)) {
      assertThat(Meta.annotations(sets().get(n)))
          .containsEntry("deployment.kubernetes.io/desired-replicas", "20")
          .containsEntry("deployment.kubernetes.io/max-replicas", "25");
    }
  }

  @Test
  void recreateScalesTheOldSetToZeroBeforeTheNewOne() {
    deployments().create(Json.read(deployment(2, "nginx:1",
        ",\"strategy\":{\"type\":\"Recreate\"}")));
    idle();
    readyAll();
    String first = onlySet().name();
    assertThat(Meta.annotations(sets().get(first)))
        .containsEntry("deployment.kubernetes.io/max-replicas", "2");
    tick();
    setImage("nginx:2");
    idle();
    Map<String, Long> sizes = sizes();
    assertThat(sizes).hasSize(2).containsEntry(first, 0L);
    assertThat(sizes.values()).containsExactlyInAnyOrder(0L, 2L);
    assertThat(pods().list()).allSatisfy(p -> assertThat(Meta.labels(p).get("pod-template-hash"))
        .isNotEqualTo(first.substring("web-".length())));
  }

  @ParameterizedTest
  @EnumSource(value = PropagationPolicy.class, names = {"BACKGROUND", "FOREGROUND"})
  void deletingTheDeploymentRemovesItsReplicaSetsAndPods(PropagationPolicy policy) {
    deployments().create(Json.read(deployment(2, "nginx:1", "")));
    idle();
    tick();
    setImage("nginx:2");
    idle();
    assertThat(sets().list()).hasSize(2);
    assertThat(pods().list()).isNotEmpty();
    deployments().delete("web", DeleteOptions.of(policy));
    idle();
    assertThat(deployments().list()).isEmpty();
    assertThat(sets().list()).isEmpty();
    assertThat(pods().list()).isEmpty();
  }

  @Test
  void progressDeadlineExceededWhenTheServerClockPassesIt() {
    deployments().create(Json.read(deployment(2, "nginx:1", ",\"progressDeadlineSeconds\":60")));
    idle();
    String name = onlySet().name();
    MapValue status = Nested.map(deployments().get("web"), "status");
    assertCondition(status, "Progressing", "True", "ReplicaSetUpdated",
        "ReplicaSet \"" + name + "\" is progressing.");
    clock.set(clock.instant().plusSeconds(30));
    idle();
    assertThat(Nested.str(DeploymentScenarioTest.condition(
        Nested.map(deployments().get("web"), "status"), "Progressing"), "reason"))
        .isEqualTo("ReplicaSetUpdated");
    clock.set(clock.instant().plusSeconds(31));
    idle();
    status = Nested.map(deployments().get("web"), "status");
    assertCondition(status, "Progressing", "False", "ProgressDeadlineExceeded",
        "ReplicaSet \"" + name + "\" has timed out progressing.");
    // progress after the deadline: the rollout goes on and completes
    readyAll();
    assertCondition(Nested.map(deployments().get("web"), "status"), "Progressing", "True",
        "NewReplicaSetAvailable", "ReplicaSet \"" + name + "\" has successfully progressed.");
  }

  @Test
  void theDeprecatedRollbackAnnotationRollsBackToTheRevisionAndIsCleared() {
    deployments().create(Json.read(deployment(2, "nginx:1", "")));
    idle();
    readyAll();
    String first = onlySet().name();
    tick();
    setImage("nginx:2");
    rollToTheEnd();
    tick();
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"metadata\":{\"annotations\":"
        + "{\"deprecated.deployment.rollback.to\":\"1\"}}}");
    rollToTheEnd();
    MapValue d = deployments().get("web");
    assertThat(Meta.annotations(d)).doesNotContainKey("deprecated.deployment.rollback.to")
        .containsEntry("deployment.kubernetes.io/revision", "3");
    assertThat(Nested.str(Nested.list(d, "spec", "template", "spec", "containers").get(0),
        "image")).isEqualTo("nginx:1");
    assertThat(Meta.annotations(sets().get(first)))
        .containsEntry("deployment.kubernetes.io/revision", "3")
        .containsEntry("deployment.kubernetes.io/revision-history", "1");
    assertThat(sizes().get(first)).isEqualTo(2);
  }

  @Test
  void oldReplicaSetsBeyondTheRevisionHistoryLimitAreDeleted() {
    deployments().create(Json.read(deployment(1, "nginx:1", ",\"revisionHistoryLimit\":1")));
    rollToTheEnd();
    for (String image : List.of("nginx:2", "nginx:3", "nginx:4")) {
      tick();
      setImage(image);
      rollToTheEnd();
    }
    // the new set and one old one, the newest: revisions 4 and 3
    assertThat(sets().list()).hasSize(2);
    assertThat(sets().list().stream().map(s -> Meta.annotations(s)
        .get("deployment.kubernetes.io/revision"))).containsExactlyInAnyOrder("3", "4");
  }

  // ---- helpers ----

  private record SetName(String name) {}

  private SetName onlySet() {
    List<MapValue> rss = sets().list();
    assertThat(rss).hasSize(1);
    return new SetName(Meta.metaString(rss.get(0), "name"));
  }

  private void setImage(String image) {
    deployments().patch("web", PatchType.STRATEGIC_MERGE_PATCH,
        "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\""
            + image + "\"}]}}}}");
  }

  /** spec.replicas of each ReplicaSet, by name. */
  private Map<String, Long> sizes() {
    Map<String, Long> out = new LinkedHashMap<>();
    sets().list().stream().sorted(Comparator.comparing(s -> Meta.metaString(s, "name")))
        .forEach(s -> out.put(Meta.metaString(s, "name"), Nested.integer(s, "spec", "replicas")));
    return out;
  }

  private long activePods() {
    return pods().list().stream()
        .filter(p -> !Nested.has(p, "metadata", "deletionTimestamp")).count();
  }

  /** Makes Pods ready until the rollout stops changing, at most 20 rounds. */
  private void rollToTheEnd() {
    idle();
    for (int i = 0; i < 20; i++) {
      if (!readyAll()) {
        return;
      }
    }
  }

  /**
   * Marks every Pod Running and Ready through pods/status, as a kubelet would, then waits for
   * the controllers; whether any Pod changed.
   */
  private boolean readyAll() {
    boolean changed = false;
    for (MapValue pod : pods().list()) {
      if (Nested.str(pod, "status", "phase").equals("Running")) {
        continue;
      }
      String time = Meta.formatTime(clock.instant());
      MapValue status = (MapValue) Json.read("{\"phase\":\"Running\",\"conditions\":"
          + "[{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\"" + time + "\"}]}");
      ApiResponse response = api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS)
          .namespace("ns").name(Meta.metaString(pod, "name")).subresource("status")
          .options(UpdateOptions.defaults()).body(pod.with("status", status)).build());
      // Readying one Pod can let the rollout scale an old set down and delete another Pod of
      // this list meanwhile; a kubelet simply stops reporting a Pod that is gone.
      if (response.code() == 404) {
        continue;
      }
      response.orThrow();
      changed = true;
    }
    idle();
    return changed;
  }

  private static MapValue condition(MapValue status, String type) {
    return Nested.list(status, "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(type)).map(c -> (MapValue) c).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " condition in " + status));
  }

  private static void assertCondition(MapValue status, String type, String expectedStatus,
      String reason, String message) {
    MapValue c = condition(status, type);
    assertThat(Nested.str(c, "status")).as(type + " status").isEqualTo(expectedStatus);
    assertThat(Nested.str(c, "reason")).as(type + " reason").isEqualTo(reason);
    assertThat(Nested.str(c, "message")).as(type + " message").isEqualTo(message);
    assertThat(Nested.str(c, "lastUpdateTime")).isNotEmpty();
    assertThat(Nested.str(c, "lastTransitionTime")).isNotEmpty();
  }

  private List<String> eventMessages(String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals(reason))
        .filter(e -> Nested.str(e, "involvedObject", "kind").equals("Deployment"))
        .map(e -> Nested.str(e, "message")).toList();
  }

  @Test
  void aRollingUpdateRecordsKubesScalingEvents() {
    MapValue d = deployments().create(Json.read(deployment(3, "nginx:1", "")));
    idle();
    String first = onlySet().name();
    // sync.go: "Scaled up replica set %s from 0 to %d" when the new set is created
    assertThat(eventMessages("ScalingReplicaSet"))
        .containsExactly("Scaled up replica set " + first + " from 0 to 3");
    MapValue event = api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals("ScalingReplicaSet")).findFirst()
        .orElseThrow();
    assertThat(Nested.str(event, "type")).isEqualTo("Normal");
    assertThat(Nested.str(event, "source", "component")).isEqualTo("deployment-controller");
    assertThat(Nested.str(event, "involvedObject", "apiVersion")).isEqualTo("apps/v1");
    assertThat(Nested.str(event, "involvedObject", "name")).isEqualTo("web");
    assertThat(Nested.str(event, "involvedObject", "uid")).isEqualTo(Meta.metaString(d, "uid"));
    assertThat(Meta.metaString(event, "name")).startsWith("web.");
    readyAll();
    tick();
    setImage("nginx:2");
    idle();
    String second = sets().list().stream().map(s -> Meta.metaString(s, "name"))
        .filter(n -> !n.equals(first)).findFirst().orElseThrow();
    for (int i = 0; i < 3; i++) {
      readyAll();
    }
    // scaleReplicaSet: "Scaled %s replica set %s from %d to %d" for each size change
    assertThat(eventMessages("ScalingReplicaSet")).containsExactlyInAnyOrder(
        "Scaled up replica set " + first + " from 0 to 3",
        "Scaled up replica set " + second + " from 0 to 1",
        "Scaled down replica set " + first + " from 3 to 2",
        "Scaled up replica set " + second + " from 1 to 2",
        "Scaled down replica set " + first + " from 2 to 1",
        "Scaled up replica set " + second + " from 2 to 3",
        "Scaled down replica set " + first + " from 1 to 0");
  }

  @Test
  void theDeprecatedRollbackIsADeploymentRollbackEvent() {
    deployments().create(Json.read(deployment(2, "nginx:1", "")));
    idle();
    readyAll();
    tick();
    setImage("nginx:2");
    rollToTheEnd();
    tick();
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"metadata\":{\"annotations\":"
        + "{\"deprecated.deployment.rollback.to\":\"1\"}}}");
    rollToTheEnd();
    // rollback.go: emitRollbackNormalEvent
    assertThat(eventMessages("DeploymentRollback"))
        .containsExactly("Rolled back deployment \"web\" to revision 1");
    deployments().patch("web", PatchType.MERGE_PATCH, "{\"metadata\":{\"annotations\":"
        + "{\"deprecated.deployment.rollback.to\":\"9\"}}}");
    idle();
    assertThat(eventMessages("DeploymentRollbackRevisionNotFound"))
        .containsExactly("Unable to find the revision to rollback to.");
  }
}
