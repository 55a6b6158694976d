/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The attach/detach controller and the simulated external attacher on a real server, a Node
 * posted as kubelet posts it. Expected names and values are kube's: the attachment name of
 * pkg/volume/csi/csi_attacher.go {@code getAttachmentName} (csi- and the SHA-256 of
 * volumeHandle+driver+node, computed here for "vol-1", "hostpath.csi.k8s.io", "node-1" with
 * sha256sum), the unique volume name {@code kubernetes.io/csi/<driver>^<handle>} of
 * csi_plugin.go's {@code GetVolumeName}, the {@code SuccessfulAttachVolume} message of
 * operation_generator.go's {@code GenerateMsg("AttachVolume.Attach succeeded", "")}, the
 * reconciler's wait for {@code volumesInUse} and its 6 minute {@code maxWaitForUnmountDuration}
 * for a Node that is not Ready, and the external-attacher's finalizer name.
 */
class AttachDetachScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");
  private static final GroupVersionResource ATTACHMENTS =
      new GroupVersionResource("storage.k8s.io", "v1", "volumeattachments");
  private static final GroupVersionResource DRIVERS =
      new GroupVersionResource("storage.k8s.io", "v1", "csidrivers");
  private static final String DRIVER = "hostpath.csi.k8s.io";
  private static final String ATTACHMENT =
      "csi-a5a2e67339ab5660a390dc86be397e784322823ff01f40cf2c01a72c3cab1374";
  private static final String UNIQUE = "kubernetes.io/csi/hostpath.csi.k8s.io^vol-1";

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  private void start(boolean simulatedStorage) {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    for (String ns : List.of("ns", "default")) {
      api.resources("v1", "namespaces").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
          + "\"Namespace\",\"metadata\":{\"name\":\"" + ns + "\"}}"));
    }
    ControllerManager.Builder b = ControllerManager.builder(api).clock(clock)
        .controllers("persistentvolume-binder,attachdetach");
    if (!simulatedStorage) {
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

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  /** A Node as kubelet registers it: the controller-managed annotation, Ready as given. */
  private void node(String name, boolean managed, String ready) {
    api.resources(NODES).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"" + name + "\"" + (managed ? ",\"annotations\":{\"volumes"
        + ".kubernetes.io/controller-managed-attach-detach\":\"true\"}" : "") + "}}"));
    nodeStatus(name, "{\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + ready
        + "\",\"reason\":\"KubeletReady\",\"message\":\"kubelet is posting ready status\"}]}");
  }

  private void nodeStatus(String name, String status) {
    api.handle(ApiRequest.builder(ApiRequest.Verb.PATCH, NODES).name(name)
        .subresource("status").patch(PatchType.STRATEGIC_MERGE_PATCH,
            "{\"status\":" + status + "}").build()).orThrow();
  }

  /** A CSI volume pre-bound to claim ns/data and the claim, which the binder binds. */
  private void boundClaim(String driver) {
    api.resources(PVS).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\","
        + "\"metadata\":{\"name\":\"pv-1\"},\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},"
        + "\"accessModes\":[\"ReadWriteOnce\"],\"csi\":{\"driver\":\"" + driver + "\","
        + "\"volumeHandle\":\"vol-1\"},\"claimRef\":{\"namespace\":\"ns\",\"name\":\"data\"}}}"));
    api.resources(PVCS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"data\"},\"spec\":{\"accessModes\":"
        + "[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"1Gi\"}},"
        + "\"volumeName\":\"pv-1\",\"storageClassName\":\"\"}}"));
  }

  private void pod(String name, String node) {
    api.resources(PODS).namespace("ns").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Pod\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"nodeName\":\"" + node
        + "\",\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}],\"volumes\":[{\"name\":"
        + "\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}]}}"));
  }

  private void deletePod(String name) {
    api.resources(PODS).namespace("ns").delete(name,
        DeleteOptions.builder().gracePeriodSeconds(0).build());
  }

  private ResourceClient attachments() {
    return api.resources(ATTACHMENTS);
  }

  private List<Value> volumesAttached(String node) {
    return Nested.list(api.resources(NODES).get(node), "status", "volumesAttached");
  }

  private List<String> podEvents(String pod) {
    return api.resources(EVENTS).namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "involvedObject", "name").equals(pod)
            && Nested.str(e, "involvedObject", "kind").equals("Pod"))
        .map(e -> Nested.str(e, "source", "component") + " " + Nested.str(e, "reason") + ": "
            + Nested.str(e, "message")).toList();
  }

  @Test
  void aPodOnAManagedNodeGetsItsCsiVolumeAttachedAndReported() {
    start(true);
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();

    MapValue a = attachments().get(ATTACHMENT);
    assertThat(Nested.str(a, "spec", "attacher")).isEqualTo(DRIVER);
    assertThat(Nested.str(a, "spec", "nodeName")).isEqualTo("node-1");
    assertThat(Nested.str(a, "spec", "source", "persistentVolumeName")).isEqualTo("pv-1");
    assertThat(Nested.bool(a, "status", "attached")).isTrue();
    // external-attacher's GetFinalizerName: the driver with '.' replaced by '-'
    assertThat(Nested.list(a, "metadata", "finalizers"))
        .containsExactly(Value.of("external-attacher/hostpath-csi-k8s-io"));
    assertThat(volumesAttached("node-1")).containsExactly(Json.read(
        "{\"name\":\"" + UNIQUE + "\",\"devicePath\":\"\"}"));
    assertThat(podEvents("web")).containsExactly("attachdetach-controller "
        + "SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume \"pv-1\" ");
  }

  @Test
  void theVolumeIsDetachedOnlyOnceTheKubeletNoLongerReportsItInUse() {
    start(true);
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();
    nodeStatus("node-1", "{\"volumesInUse\":[\"" + UNIQUE + "\"]}");
    deletePod("web");
    idle();
    // still mounted: kube's reconciler does not detach a volume the node reports in use
    assertThat(attachments().find(ATTACHMENT)).isPresent();
    assertThat(volumesAttached("node-1")).hasSize(1);

    nodeStatus("node-1", "{\"volumesInUse\":null}");
    idle();
    assertThat(attachments().find(ATTACHMENT)).isEmpty();
    assertThat(volumesAttached("node-1")).isEmpty();
  }

  @Test
  void aVolumeStillInUseOnANodeThatIsNotReadyIsDetachedAfterSixMinutes() {
    start(true);
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();
    nodeStatus("node-1", "{\"volumesInUse\":[\"" + UNIQUE + "\"],\"conditions\":[{\"type\":"
        + "\"Ready\",\"status\":\"Unknown\",\"reason\":\"NodeStatusUnknown\",\"message\":"
        + "\"Kubelet stopped posting node status.\"}]}");
    deletePod("web");
    idle();
    clock.set(clock.instant().plus(Duration.ofMinutes(6)).minusSeconds(1));
    idle();
    assertThat(attachments().find(ATTACHMENT)).as("before 6 minutes").isPresent();
    clock.set(clock.instant().plusSeconds(2));
    idle();
    assertThat(attachments().find(ATTACHMENT)).as("after 6 minutes").isEmpty();
    assertThat(volumesAttached("node-1")).isEmpty();
  }

  @Test
  void aDriverThatNeedsNoAttachIsSkipped() {
    start(true);
    api.resources(DRIVERS).create(Json.read("{\"apiVersion\":\"storage.k8s.io/v1\",\"kind\":"
        + "\"CSIDriver\",\"metadata\":{\"name\":\"" + DRIVER + "\"},\"spec\":"
        + "{\"attachRequired\":false}}"));
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();
    assertThat(attachments().list()).isEmpty();
    assertThat(volumesAttached("node-1")).isEmpty();
  }

  @Test
  void aNodeWithoutTheControllerManagedAnnotationIsLeftToItsKubelet() {
    start(true);
    node("node-1", false, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();
    assertThat(attachments().list()).isEmpty();
  }

  @Test
  void withoutSimulatedStorageTheAttachmentWaitsForAnAttacher() {
    start(false);
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("web", "node-1");
    idle();
    MapValue a = attachments().get(ATTACHMENT);
    assertThat(Nested.bool(a, "status", "attached")).isFalse();
    assertThat(Nested.list(a, "metadata", "finalizers")).isEmpty();
    assertThat(volumesAttached("node-1")).isEmpty();
    assertThat(podEvents("web")).isEmpty();

    // an attacher of the test's own marks it attached: the Node reports it
    api.handle(ApiRequest.builder(ApiRequest.Verb.PATCH, ATTACHMENTS).name(ATTACHMENT)
        .subresource("status").patch(PatchType.MERGE_PATCH,
            "{\"status\":{\"attached\":true}}").build()).orThrow();
    idle();
    assertThat(volumesAttached("node-1")).hasSize(1);

    deletePod("web");
    idle();
    assertThat(attachments().find(ATTACHMENT)).isEmpty();
    assertThat(volumesAttached("node-1")).isEmpty();
  }

  @Test
  void twoPodsOnANodeShareOneAttachmentUntilTheLastGoes() {
    start(true);
    node("node-1", true, "True");
    boundClaim(DRIVER);
    pod("a", "node-1");
    pod("b", "node-1");
    idle();
    assertThat(attachments().list()).hasSize(1);
    deletePod("a");
    idle();
    assertThat(attachments().find(ATTACHMENT)).isPresent();
    deletePod("b");
    idle();
    assertThat(attachments().find(ATTACHMENT)).isEmpty();
  }
}
