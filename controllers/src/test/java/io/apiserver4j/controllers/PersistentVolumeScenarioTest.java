/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The persistent volume binder and its simulated provisioner on a real server. Expected
 * objects, annotations, phases and event messages are kube's (pv_controller.go and its
 * binder_test/provision_test/delete_test cases; the external provisioner's events as
 * csi-provisioner writes them, e.g. "Successfully provisioned volume pvc-...").
 */
class PersistentVolumeScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource CLASSES =
      new GroupVersionResource("storage.k8s.io", "v1", "storageclasses");
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
  private static final GroupVersionResource STS =
      new GroupVersionResource("apps", "v1", "statefulsets");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  private void start(String flags, boolean provisioner) {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    // where the events of cluster-scoped objects (volumes) go
    api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Namespace\",\"metadata\":{\"name\":\"default\"}}"));
    ControllerManager.Builder b = ControllerManager.builder(api).clock(clock).controllers(flags);
    if (!provisioner) {
      b.withoutSimulatedStorage();
    }
    controllers = b.start();
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    if (api != null) {
      api.close();
    }
  }

  private ResourceClient volumes() {
    return api.resources(PVS);
  }

  private ResourceClient claims() {
    return api.resources(PVCS).namespace("ns");
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private static String volume(String name, String size, String modes, String extraSpec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\""
        + name + "\"},\"spec\":{\"capacity\":{\"storage\":\"" + size + "\"},\"accessModes\":["
        + modes + "]" + extraSpec + "}}";
  }

  private static String hostPathVolume(String name, String size, String path, String policy) {
    return volume(name, size, "\"ReadWriteOnce\"", ",\"hostPath\":{\"path\":\"" + path
        + "\"},\"persistentVolumeReclaimPolicy\":\"" + policy + "\"");
  }

  private static String claim(String name, String size, String extraSpec) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\""
        + name + "\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":"
        + "{\"storage\":\"" + size + "\"}}" + extraSpec + "}}";
  }

  private void storageClass(String name, String extra) {
    api.resources(CLASSES).create(Json.read("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":"
        + "\"StorageClass\",\"metadata\":{\"name\":\"" + name + "\"" + extra));
  }

  /** The reasons and messages of the events about {@code claim}, oldest first. */
  private List<String> events(String kind, String name) {
    return api.resources(EVENTS).namespace(kind.equals("PersistentVolume") ? "default" : "ns")
        .list().stream()
        .filter(e -> Nested.str(e, "involvedObject", "name").equals(name)
            && Nested.str(e, "involvedObject", "kind").equals(kind))
        .map(e -> Nested.str(e, "reason") + ": " + Nested.str(e, "message")).toList();
  }

  /** Waits, on each change a watch delivers, until {@code condition} holds of the list. */
  private void await(ResourceClient client, String what, Predicate<List<MapValue>> condition) {
    ApiWatch watch = client.watch();
    try {
      while (!condition.test(client.list())) {
        assertThat(watch.poll(IDLE)).as(what).isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      watch.close();
    }
  }

  private static boolean named(List<MapValue> objects, String name) {
    return objects.stream().anyMatch(o -> Meta.metaString(o, "name").equals(name));
  }

  @Test
  void aStaticVolumeIsBoundToAClaimBothWays() {
    start("persistentvolume-binder", true);
    volumes().create(Json.read(hostPathVolume("pv1", "1Gi", "/data/pv1", "Retain")));
    idle();
    assertThat(Nested.str(volumes().get("pv1"), "status", "phase")).isEqualTo("Available");
    MapValue created = claims().create(Json.read(claim("claim1", "1Gi",
        ",\"storageClassName\":\"\"")));
    idle();

    MapValue pv = volumes().get("pv1");
    MapValue pvc = claims().get("claim1");
    assertThat(Nested.map(pv, "spec", "claimRef")).isEqualTo(Json.read("{\"kind\":"
        + "\"PersistentVolumeClaim\",\"namespace\":\"ns\",\"name\":\"claim1\",\"uid\":\""
        + Meta.metaString(created, "uid") + "\",\"apiVersion\":\"v1\",\"resourceVersion\":\""
        + Meta.metaString(created, "resourceVersion") + "\"}"));
    assertThat(Meta.annotations(pv)).containsEntry("pv.kubernetes.io/bound-by-controller",
        "yes");
    assertThat(Nested.str(pv, "status", "phase")).isEqualTo("Bound");
    assertThat(Nested.str(pv, "status", "lastPhaseTransitionTime"))
        .isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Nested.str(pvc, "spec", "volumeName")).isEqualTo("pv1");
    assertThat(Meta.annotations(pvc)).containsAllEntriesOf(Map.of(
        "pv.kubernetes.io/bind-completed", "yes", "pv.kubernetes.io/bound-by-controller", "yes"));
    assertThat(Nested.map(pvc, "status")).isEqualTo(Json.read("{\"phase\":\"Bound\","
        + "\"accessModes\":[\"ReadWriteOnce\"],\"capacity\":{\"storage\":\"1Gi\"}}"));
  }

  @Test
  void theSmallestFittingVolumeOfTheClassIsChosen() {
    start("persistentvolume-binder", true);
    volumes().create(Json.read(hostPathVolume("big", "10Gi", "/data/big", "Retain")));
    volumes().create(Json.read(hostPathVolume("small", "1Gi", "/data/small", "Retain")));
    volumes().create(Json.read(hostPathVolume("fit", "3Gi", "/data/fit", "Retain")));
    volumes().create(Json.read(volume("gold", "2Gi", "\"ReadWriteOnce\"",
        ",\"hostPath\":{\"path\":\"/data/gold\"},\"storageClassName\":\"gold\"")));
    idle();
    claims().create(Json.read(claim("claim1", "2Gi", ",\"storageClassName\":\"\"")));
    idle();
    assertThat(Nested.str(claims().get("claim1"), "spec", "volumeName")).isEqualTo("fit");
    assertThat(Nested.str(volumes().get("gold"), "status", "phase")).isEqualTo("Available");
  }

  @Test
  void aClaimNamingAVolumeThatDoesNotFitGetsVolumeMismatch() {
    start("persistentvolume-binder", true);
    volumes().create(Json.read(hostPathVolume("pv1", "1Gi", "/data/pv1", "Retain")));
    idle();
    claims().create(Json.read(claim("claim1", "5Gi",
        ",\"storageClassName\":\"\",\"volumeName\":\"pv1\"")));
    idle();
    assertThat(Nested.str(claims().get("claim1"), "status", "phase")).isEqualTo("Pending");
    assertThat(events("PersistentVolumeClaim", "claim1")).contains(
        "VolumeMismatch: Cannot bind to requested volume \"pv1\": requested PV is too small");
  }

  @Test
  void withNoVolumeAndNoClassTheClaimStaysPending() {
    start("persistentvolume-binder", true);
    claims().create(Json.read(claim("claim1", "1Gi", ",\"storageClassName\":\"\"")));
    idle();
    assertThat(Nested.str(claims().get("claim1"), "status", "phase")).isEqualTo("Pending");
    assertThat(events("PersistentVolumeClaim", "claim1")).containsExactly("FailedBinding: no "
        + "persistent volumes available for this claim and no storage class is set");
  }

  @Test
  void retainKeepsAReleasedVolume() {
    start("persistentvolume-binder", true);
    volumes().create(Json.read(hostPathVolume("pv1", "1Gi", "/data/pv1", "Retain")));
    claims().create(Json.read(claim("claim1", "1Gi", ",\"storageClassName\":\"\"")));
    idle();
    claims().delete("claim1");
    await(claims(), "claim1 deleted", l -> !named(l, "claim1"));
    idle();
    MapValue pv = volumes().get("pv1");
    assertThat(Nested.str(pv, "status", "phase")).isEqualTo("Released");
    // the claimRef stays: an administrator decides what becomes of the data
    assertThat(Nested.str(pv, "spec", "claimRef", "name")).isEqualTo("claim1");
  }

  @Test
  void deleteRemovesAHostPathVolumeUnderTmpAndFailsOtherwise() {
    start("persistentvolume-binder", true);
    volumes().create(Json.read(hostPathVolume("tmp", "1Gi", "/tmp/data", "Delete")));
    volumes().create(Json.read(hostPathVolume("data", "5Gi", "/data/x", "Delete")));
    claims().create(Json.read(claim("claim1", "1Gi", ",\"storageClassName\":\"\"")));
    claims().create(Json.read(claim("claim2", "5Gi", ",\"storageClassName\":\"\"")));
    idle();
    assertThat(Nested.str(claims().get("claim1"), "spec", "volumeName")).isEqualTo("tmp");
    assertThat(Nested.str(claims().get("claim2"), "spec", "volumeName")).isEqualTo("data");
    claims().delete("claim1");
    claims().delete("claim2");
    await(volumes(), "tmp deleted", l -> !named(l, "tmp"));
    await(volumes(), "data failed", l -> l.stream().anyMatch(v -> Meta.metaString(v, "name")
        .equals("data") && Nested.str(v, "status", "phase").equals("Failed")));
    idle();
    MapValue data = volumes().get("data");
    assertThat(Nested.str(data, "status", "message"))
        .isEqualTo("host_path deleter only supports /tmp/.+ but received provided /data/x");
    assertThat(events("PersistentVolume", "data")).containsExactly("VolumeFailedDelete: "
        + "host_path deleter only supports /tmp/.+ but received provided /data/x");
  }

  @Test
  void aClaimOfTheDefaultClassIsProvisionedAndItsVolumeDeletedWithIt() {
    start("persistentvolume-binder", true);
    storageClass("standard", ",\"annotations\":{\"storageclass.kubernetes.io/is-default-class\""
        + ":\"true\"}},\"provisioner\":\"example.com/simulated\",\"reclaimPolicy\":\"Delete\","
        + "\"mountOptions\":[\"debug\"]}");
    MapValue created = claims().create(Json.read(claim("claim1", "3Gi", "")));
    idle();
    String uid = Meta.metaString(created, "uid");
    MapValue pvc = claims().get("claim1");
    assertThat(Nested.str(pvc, "spec", "storageClassName")).isEqualTo("standard");
    assertThat(Nested.str(pvc, "spec", "volumeName")).isEqualTo("pvc-" + uid);
    assertThat(Nested.str(pvc, "status", "phase")).isEqualTo("Bound");
    assertThat(Meta.annotations(pvc)).containsAllEntriesOf(Map.of(
        "volume.kubernetes.io/storage-provisioner", "example.com/simulated",
        "volume.beta.kubernetes.io/storage-provisioner", "example.com/simulated",
        "pv.kubernetes.io/bind-completed", "yes", "pv.kubernetes.io/bound-by-controller", "yes"));
    MapValue pv = volumes().get("pvc-" + uid);
    assertThat(Meta.annotations(pv)).containsEntry("pv.kubernetes.io/provisioned-by",
        "example.com/simulated").doesNotContainKey("pv.kubernetes.io/bound-by-controller");
    assertThat(Nested.str(pv, "spec", "capacity", "storage")).isEqualTo("3Gi");
    assertThat(Nested.str(pv, "spec", "persistentVolumeReclaimPolicy")).isEqualTo("Delete");
    assertThat(Nested.str(pv, "spec", "storageClassName")).isEqualTo("standard");
    assertThat(Nested.str(pv, "spec", "csi", "driver")).isEqualTo("example.com/simulated");
    assertThat(Meta.stringList(Nested.getOrNull(pv, "spec", "mountOptions")))
        .containsExactly("debug");
    assertThat(Nested.str(pv, "status", "phase")).isEqualTo("Bound");
    assertThat(events("PersistentVolumeClaim", "claim1")).contains(
        "ExternalProvisioning: Waiting for a volume to be created either by the external "
            + "provisioner 'example.com/simulated' or manually by the system administrator. If "
            + "volume creation is delayed, please verify that the provisioner is running and "
            + "correctly registered.",
        "Provisioning: External provisioner is provisioning volume for claim \"ns/claim1\"",
        "ProvisioningSucceeded: Successfully provisioned volume pvc-" + uid);

    claims().delete("claim1");
    await(volumes(), "the provisioned volume deleted", l -> !named(l, "pvc-" + uid));
  }

  @Test
  void withoutTheSimulatedProvisionerTheClaimWaitsForAnExternalOne() {
    start("persistentvolume-binder", false);
    storageClass("standard", "},\"provisioner\":\"example.com/simulated\"}");
    claims().create(Json.read(claim("claim1", "1Gi", ",\"storageClassName\":\"standard\"")));
    idle();
    assertThat(Nested.str(claims().get("claim1"), "status", "phase")).isEqualTo("Pending");
    assertThat(volumes().list()).isEmpty();
    assertThat(events("PersistentVolumeClaim", "claim1")).singleElement().asString()
        .startsWith("ExternalProvisioning: Waiting for a volume to be created either by the "
            + "external provisioner 'example.com/simulated'");
  }

  @Test
  void waitForFirstConsumerProvisionsOnceANodeIsSelected() {
    start("persistentvolume-binder", true);
    storageClass("local", "},\"provisioner\":\"example.com/local\","
        + "\"volumeBindingMode\":\"WaitForFirstConsumer\"}");
    claims().create(Json.read(claim("claim1", "1Gi", ",\"storageClassName\":\"local\"")));
    idle();
    assertThat(events("PersistentVolumeClaim", "claim1")).containsExactly(
        "WaitForFirstConsumer: waiting for first consumer to be created before binding");
    api.resources("v1", "pods").namespace("ns").create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"containers\":[{\"name\":"
        + "\"c\",\"image\":\"nginx\"}],\"volumes\":[{\"name\":\"data\",\"persistentVolumeClaim\":"
        + "{\"claimName\":\"claim1\"}}]}}"));
    // a resync (kube's 15 s) finds the Pod waiting for the scheduler
    clock.set(clock.instant().plusSeconds(15));
    idle();
    assertThat(events("PersistentVolumeClaim", "claim1"))
        .contains("WaitForPodScheduled: waiting for pod web to be scheduled");
    assertThat(volumes().list()).isEmpty();
    // what kube's scheduler (VolumeBinding PreBind) does for a claim to provision
    claims().patch("claim1", PatchType.MERGE_PATCH, "{\"metadata\":{\"annotations\":"
        + "{\"volume.kubernetes.io/selected-node\":\"node-1\"}}}");
    idle();
    MapValue pvc = claims().get("claim1");
    assertThat(Nested.str(pvc, "status", "phase")).isEqualTo("Bound");
    assertThat(Nested.str(pvc, "spec", "volumeName"))
        .isEqualTo("pvc-" + Meta.metaString(pvc, "uid"));
  }

  @Test
  void aStatefulSetsClaimsOnTheDefaultClassAreBound() {
    start("statefulset,persistentvolume-binder", true);
    storageClass("standard", ",\"annotations\":{\"storageclass.kubernetes.io/is-default-class\""
        + ":\"true\"}},\"provisioner\":\"example.com/simulated\"}");
    api.resources(STS).namespace("ns").create(Json.read("{\"apiVersion\":\"apps/v1\",\"kind\":"
        + "\"StatefulSet\",\"metadata\":{\"name\":\"web\"},\"spec\":{\"serviceName\":\"nginx\","
        + "\"replicas\":2,\"podManagementPolicy\":\"Parallel\",\"selector\":{\"matchLabels\":"
        + "{\"app\":\"nginx\"}},\"template\":{\"metadata\":{\"labels\":{\"app\":\"nginx\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\",\"volumeMounts\":"
        + "[{\"name\":\"www\",\"mountPath\":\"/usr/share/nginx/html\"}]}]}},"
        + "\"volumeClaimTemplates\":[{\"metadata\":{\"name\":\"www\"},\"spec\":{\"accessModes\":"
        + "[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}]}}"));
    idle();
    List<MapValue> all = claims().list();
    assertThat(all).extracting(c -> Meta.metaString(c, "name"))
        .containsExactlyInAnyOrder("www-web-0", "www-web-1");
    for (MapValue c : all) {
      assertThat(Nested.str(c, "status", "phase")).isEqualTo("Bound");
      assertThat(Nested.str(c, "spec", "volumeName"))
          .isEqualTo("pvc-" + Meta.metaString(c, "uid"));
    }
  }
}
