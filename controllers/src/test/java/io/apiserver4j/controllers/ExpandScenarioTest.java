/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The expand controller with the binder and the simulated provisioner and resizer: a claim of
 * an expandable class asks for more and gets it. Expected events are kube's expand controller's
 * ("waiting for an external controller to expand this PVC") and csi-resizer's ("External
 * resizer is resizing volume ...", "Resize volume succeeded").
 */
class ExpandScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  private void start(boolean simulatedStorage) {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    api.resources(new GroupVersionResource("storage.k8s.io", "v1", "storageclasses"))
        .create(Json.read("{\"apiVersion\":"
        + "\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"standard\"},"
        + "\"provisioner\":\"example.com/simulated\",\"allowVolumeExpansion\":true}"));
    ControllerManager.Builder b = ControllerManager.builder(api).clock(clock)
        .controllers("persistentvolume-binder,persistentvolume-expander");
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

  private ResourceClient claims() {
    return api.resources(PVCS).namespace("ns");
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private List<String> events(String name) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "involvedObject", "name").equals(name))
        .map(e -> Nested.str(e, "reason") + ": " + Nested.str(e, "message")).toList();
  }

  private String boundClaim() {
    claims().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\","
        + "\"metadata\":{\"name\":\"data\"},\"spec\":{\"storageClassName\":\"standard\","
        + "\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":"
        + "\"1Gi\"}}}}"));
    idle();
    MapValue claim = claims().get("data");
    assertThat(Nested.str(claim, "status", "phase")).isEqualTo("Bound");
    return Nested.str(claim, "spec", "volumeName");
  }

  @Test
  void aLargerRequestResizesTheVolumeAndTheClaim() {
    start(true);
    String volume = boundClaim();
    claims().patch("data", PatchType.MERGE_PATCH,
        "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
    idle();
    assertThat(Nested.str(api.resources(PVS).get(volume), "spec", "capacity", "storage"))
        .isEqualTo("2Gi");
    MapValue status = Nested.map(claims().get("data"), "status");
    assertThat(Nested.str(status, "capacity", "storage")).isEqualTo("2Gi");
    assertThat(Nested.str(status, "allocatedResources", "storage")).isEqualTo("2Gi");
    assertThat(status.containsKey("conditions")).isFalse();
    assertThat(status.containsKey("allocatedResourceStatuses")).isFalse();
    assertThat(events("data")).contains(
        "ExternalExpanding: waiting for an external controller to expand this PVC",
        "Resizing: External resizer is resizing volume " + volume,
        "VolumeResizeSuccessful: Resize volume succeeded");
  }

  @Test
  void withoutSimulatedStorageTheClaimWaitsForAnExternalResizer() {
    start(false);
    api.resources(PVS).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\","
        + "\"metadata\":{\"name\":\"pv1\"},\"spec\":{\"storageClassName\":\"standard\","
        + "\"capacity\":{\"storage\":\"1Gi\"},\"accessModes\":[\"ReadWriteOnce\"],\"csi\":"
        + "{\"driver\":\"example.com/simulated\",\"volumeHandle\":\"h1\"}}}"));
    idle();
    String volume = boundClaim();
    assertThat(volume).isEqualTo("pv1");
    claims().patch("data", PatchType.MERGE_PATCH,
        "{\"spec\":{\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}");
    idle();
    assertThat(Nested.str(api.resources(PVS).get(volume), "spec", "capacity", "storage"))
        .isEqualTo("1Gi");
    assertThat(Nested.str(claims().get("data"), "status", "capacity", "storage"))
        .isEqualTo("1Gi");
    assertThat(events("data")).containsExactly(
        "ExternalExpanding: waiting for an external controller to expand this PVC");
  }
}
