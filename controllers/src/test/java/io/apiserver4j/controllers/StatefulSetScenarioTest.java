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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The statefulset controller on a real server, with the garbage collector: the {@code web}
 * StatefulSet of the Kubernetes docs' "StatefulSet Basics" tutorial (3 replicas here). Pods are
 * made Running and Ready through {@code pods/status} as a kubelet would. Expected names, labels,
 * ordering and claims are kube's (stateful_set_utils.go, stateful_set_control.go, and the
 * tutorial's {@code kubectl get} output: web-0, web-1, ..., www-web-0, ...).
 */
class StatefulSetScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource STS =
      new GroupVersionResource("apps", "v1", "statefulsets");
  private static final GroupVersionResource REVISIONS =
      new GroupVersionResource("apps", "v1", "controllerrevisions");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("statefulset,garbagecollector");
  }

  /** The tutorial's web StatefulSet (serviceName nginx, claim template www of 1Gi). */
  private static String web(int replicas, String extraSpec) {
    return "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"web\"},"
        + "\"spec\":{\"serviceName\":\"nginx\",\"replicas\":" + replicas + extraSpec
        + ",\"selector\":{\"matchLabels\":{\"app\":\"nginx\"}},\"template\":{\"metadata\":"
        + "{\"labels\":{\"app\":\"nginx\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\","
        + "\"image\":\"registry.k8s.io/nginx-slim:0.21\",\"ports\":[{\"containerPort\":80,"
        + "\"name\":\"web\"}],\"volumeMounts\":[{\"name\":\"www\",\"mountPath\":"
        + "\"/usr/share/nginx/html\"}]}]}},\"volumeClaimTemplates\":[{\"metadata\":{\"name\":"
        + "\"www\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":"
        + "{\"storage\":\"1Gi\"}}}}]}}";
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private ResourceClient sets() {
    return api.resources(STS).namespace("ns");
  }

  private List<String> podNames() {
    return pods().list().stream().map(p -> Meta.metaString(p, "name")).sorted().toList();
  }

  /** Waits, on each change a watch of the claims delivers, until the claims are {@code names}. */
  private void awaitClaims(List<String> names) {
    io.apiserver4j.apiserver.ApiWatch watch = api.resources(PVCS).namespace("ns").watch();
    try {
      while (!claimNames().equals(names)) {
        assertThat(watch.poll(IDLE)).as("claims becoming " + names).isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      watch.close();
    }
  }

  private List<String> claimNames() {
    return api.resources(PVCS).namespace("ns").list().stream()
        .map(p -> Meta.metaString(p, "name")).sorted().toList();
  }

  @Test
  void orderedReadyCreatesOnePodAtATimeWithIdentityAndClaims() {
    MapValue set = sets().create(Json.read(web(3, "")));
    scenario.idle();
    // OrderedReady: web-1 waits for web-0 to be Running and Ready
    assertThat(podNames()).containsExactly("web-0");
    assertThat(claimNames()).containsExactly("www-web-0");
    runningAndReady("web-0");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0", "web-1");
    runningAndReady("web-1");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0", "web-1", "web-2");
    runningAndReady("web-2");
    scenario.idle();
    assertThat(claimNames()).containsExactly("www-web-0", "www-web-1", "www-web-2");

    List<MapValue> revisions = api.resources(REVISIONS).namespace("ns").list();
    assertThat(revisions).hasSize(1);
    String revision = Meta.metaString(revisions.get(0), "name");
    assertThat(revision).matches("web-[bcdfghjklmnpqrstvwxz2456789]+");
    assertThat(Nested.integer(revisions.get(0), "revision")).isEqualTo(1);

    MapValue pod = pods().get("web-1");
    assertThat(Meta.labels(pod)).containsExactlyInAnyOrderEntriesOf(Map.of("app", "nginx",
        "controller-revision-hash", revision, "statefulset.kubernetes.io/pod-name", "web-1",
        "apps.kubernetes.io/pod-index", "1"));
    assertThat(Meta.metaString(pod, "generateName")).isEqualTo("web-");
    assertThat(Nested.str(pod, "spec", "hostname")).isEqualTo("web-1");
    assertThat(Nested.str(pod, "spec", "subdomain")).isEqualTo("nginx");
    // the first volume is the claim's; the ServiceAccount plugin adds its token volume after it
    assertThat(Nested.list(pod, "spec", "volumes").get(0)).isEqualTo(Json.read(
        "{\"name\":\"www\",\"persistentVolumeClaim\":{\"claimName\":\"www-web-1\"}}"));
    assertThat(Nested.list(pod, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"web\",\"uid\":\""
            + Meta.metaString(set, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    MapValue claim = api.resources(PVCS).namespace("ns").get("www-web-1");
    // kube labels a claim with the selector's matchLabels; Retain/Retain: no owners
    assertThat(Meta.labels(claim)).containsExactlyInAnyOrderEntriesOf(Map.of("app", "nginx"));
    assertThat(Nested.list(claim, "metadata", "ownerReferences")).isEmpty();
    assertThat(Nested.str(claim, "spec", "resources", "requests", "storage")).isEqualTo("1Gi");

    MapValue status = Nested.map(sets().get("web"), "status");
    assertThat(status).isEqualTo(Json.read("{\"observedGeneration\":1,\"replicas\":3,"
        + "\"readyReplicas\":3,\"currentReplicas\":3,\"updatedReplicas\":3,\"currentRevision\":\""
        + revision + "\",\"updateRevision\":\"" + revision + "\",\"collisionCount\":0,"
        + "\"availableReplicas\":3}"));
  }

  @Test
  void scaleDownRemovesTheHighestOrdinalAndKeepsItsClaim() {
    sets().create(Json.read(web(3, "")));
    readyAll(3);
    sets().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":2}}");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0", "web-1");
    // whenScaled Retain (the default): the claim stays for a later scale up
    assertThat(claimNames()).containsExactly("www-web-0", "www-web-1", "www-web-2");
    sets().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":1}}");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0");
    assertThat(Nested.integer(sets().get("web"), "status", "replicas")).isEqualTo(1);
  }

  @Test
  void parallelCreatesEveryOrdinalAtOnce() {
    sets().create(Json.read(web(3, ",\"podManagementPolicy\":\"Parallel\"")));
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0", "web-1", "web-2");
  }

  @Test
  void startOrdinalNamesThePods() {
    sets().create(Json.read(web(2, ",\"ordinals\":{\"start\":5}")));
    scenario.idle();
    runningAndReady("web-5");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-5", "web-6");
    assertThat(Meta.labels(pods().get("web-6"))).containsEntry("apps.kubernetes.io/pod-index",
        "6");
    assertThat(claimNames()).containsExactly("www-web-5", "www-web-6");
  }

  @Test
  void rollingUpdateReplacesFromTheHighestOrdinalDownToThePartition() {
    sets().create(Json.read(web(3, ",\"updateStrategy\":{\"type\":\"RollingUpdate\","
        + "\"rollingUpdate\":{\"partition\":1}}")));
    readyAll(3);
    String first = Nested.str(sets().get("web"), "status", "updateRevision");
    sets().patch("web", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/template/spec/containers/0/image\",\"value\":\"registry.k8s.io/nginx-slim:0.24\"}]");
    scenario.idle();
    MapValue status = Nested.map(sets().get("web"), "status");
    String second = Nested.str(status, "updateRevision");
    assertThat(second).isNotEqualTo(first);
    assertThat(Nested.str(status, "currentRevision")).isEqualTo(first);
    // web-2 was deleted and made again from the update revision
    assertThat(Meta.labels(pods().get("web-2"))).containsEntry("controller-revision-hash",
        second);
    assertThat(image("web-2")).isEqualTo("registry.k8s.io/nginx-slim:0.24");
    assertThat(image("web-1")).isEqualTo("registry.k8s.io/nginx-slim:0.21");
    runningAndReady("web-2");
    scenario.idle();
    assertThat(image("web-1")).isEqualTo("registry.k8s.io/nginx-slim:0.24");
    runningAndReady("web-1");
    scenario.idle();
    // the partition keeps web-0 at the current revision
    assertThat(image("web-0")).isEqualTo("registry.k8s.io/nginx-slim:0.21");
    assertThat(Meta.labels(pods().get("web-0"))).containsEntry("controller-revision-hash",
        first);
    status = Nested.map(sets().get("web"), "status");
    assertThat(Nested.integer(status, "updatedReplicas")).isEqualTo(2);
    assertThat(Nested.integer(status, "currentReplicas")).isEqualTo(1);
    assertThat(api.resources(REVISIONS).namespace("ns").list()).hasSize(2);
  }

  @Test
  void onDeleteLeavesPodsUntilTheyAreDeleted() {
    sets().create(Json.read(web(1, ",\"updateStrategy\":{\"type\":\"OnDelete\"}")));
    readyAll(1);
    sets().patch("web", PatchType.JSON_PATCH, "[{\"op\":\"replace\",\"path\":"
        + "\"/spec/template/spec/containers/0/image\",\"value\":\"nginx:2\"}]");
    scenario.idle();
    assertThat(image("web-0")).isEqualTo("registry.k8s.io/nginx-slim:0.21");
    pods().delete("web-0");
    scenario.idle();
    assertThat(image("web-0")).isEqualTo("nginx:2");
  }

  @Test
  void retentionPolicyDeleteLetsTheGarbageCollectorRemoveClaims() {
    MapValue set = sets().create(Json.read(web(2, ",\"persistentVolumeClaimRetentionPolicy\":"
        + "{\"whenDeleted\":\"Delete\",\"whenScaled\":\"Delete\"}")));
    readyAll(2);
    MapValue claim = api.resources(PVCS).namespace("ns").get("www-web-1");
    // kube's updateClaimOwnerRefs: a plain (non-controller) reference to the set
    assertThat(Nested.list(claim, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"web\",\"uid\":\""
            + Meta.metaString(set, "uid") + "\"}"));
    sets().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":1}}");
    scenario.idle();
    assertThat(podNames()).containsExactly("web-0");
    // scaled down: the claim was handed to its Pod, and went with it once the server's
    // pvc-protection controller (not one of this manager's) took its finalizer off
    awaitClaims(List.of("www-web-0"));
  }

  @Test
  void aFailedPodIsDeletedAndMadeAgainWithTheSameName() {
    sets().create(Json.read(web(2, "")));
    readyAll(2);
    String uid = Meta.metaString(pods().get("web-1"), "uid");
    MapValue pod = pods().get("web-1");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("web-1")
        .subresource("status").options(UpdateOptions.defaults())
        .body(pod.with("status", Json.read("{\"phase\":\"Failed\"}"))).build()).orThrow();
    scenario.idle();
    MapValue again = pods().get("web-1");
    assertThat(Meta.metaString(again, "uid")).isNotEqualTo(uid);
    assertThat(Nested.str(again, "status", "phase")).isEqualTo("Pending");
    // the same claim is mounted again
    assertThat(claimNames()).containsExactly("www-web-0", "www-web-1");
  }

  /** Creates each ordinal's readiness in turn, as the OrderedReady set waits for it. */
  private void readyAll(int replicas) {
    for (int i = 0; i < replicas; i++) {
      scenario.idle();
      runningAndReady("web-" + i);
    }
    scenario.idle();
  }

  private String image(String pod) {
    return Nested.str(Nested.list(pods().get(pod), "spec", "containers").get(0), "image");
  }

  /** What a kubelet writes once the Pod's containers run and pass readiness. */
  private void runningAndReady(String name) {
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
  void podsClaimsAndDeletionsAreKubesEvents() {
    MapValue set = sets().create(Json.read(web(2, "")));
    readyAll(2);
    // stateful_pod_control.go: recordClaimEvent and recordPodEvent
    assertThat(eventMessages("SuccessfulCreate")).containsExactlyInAnyOrder(
        "create Claim www-web-0 Pod web-0 in StatefulSet web success",
        "create Pod web-0 in StatefulSet web successful",
        "create Claim www-web-1 Pod web-1 in StatefulSet web success",
        "create Pod web-1 in StatefulSet web successful");
    MapValue event = api.resources("v1", "events").namespace("ns").list().get(0);
    assertThat(Nested.str(event, "type")).isEqualTo("Normal");
    assertThat(Nested.str(event, "source", "component")).isEqualTo("statefulset-controller");
    assertThat(Nested.str(event, "involvedObject", "kind")).isEqualTo("StatefulSet");
    assertThat(Nested.str(event, "involvedObject", "uid")).isEqualTo(Meta.metaString(set, "uid"));
    sets().patch("web", PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":1}}");
    scenario.idle();
    assertThat(eventMessages("SuccessfulDelete"))
        .containsExactly("delete Pod web-1 in StatefulSet web successful");
  }

  @Test
  void aFailedPodIsRecreatedWithAWarning() {
    sets().create(Json.read(web(1, "")));
    readyAll(1);
    MapValue pod = pods().get("web-0");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("web-0")
        .subresource("status").options(UpdateOptions.defaults())
        .body(pod.with("status", Json.read("{\"phase\":\"Failed\"}"))).build()).orThrow();
    scenario.idle();
    // stateful_set_control.go processReplica
    assertThat(eventMessages("RecreatingFailedPod"))
        .containsExactly("StatefulSet ns/web is recreating failed Pod web-0");
    assertThat(eventMessages("SuccessfulDelete"))
        .containsExactly("delete Pod web-0 in StatefulSet web successful");
  }
}
