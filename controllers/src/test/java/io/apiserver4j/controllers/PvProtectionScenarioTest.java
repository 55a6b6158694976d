/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The pv-protection controller (the server's implementation, run by the manager in place of the
 * server's own instance), with kube's pv_protection_controller_test cases: a volume
 * without the finalizer gets it; one with it is left alone; a deleted volume that is not Bound
 * loses it; a deleted Bound volume keeps it until it is no longer Bound.
 */
class PvProtectionScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final String FINALIZER = "kubernetes.io/pv-protection";
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock).build();
    controllers = ControllerManager.builder(api).clock(clock).controllers("pv-protection")
        .start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private ResourceClient volumes() {
    return api.resources(PVS);
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private MapValue createVolume(String name) {
    return volumes().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"capacity\":{\"storage\":\"1Gi\"},"
        + "\"accessModes\":[\"ReadWriteOnce\"],\"hostPath\":{\"path\":\"/data\"}}}"));
  }

  private void setPhase(String name, String phase) {
    MapValue pv = volumes().get(name);
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PVS).name(name).subresource("status")
        .options(UpdateOptions.defaults())
        .body(pv.with("status", MapValue.ofEntries("phase", Value.of(phase)))).build())
        .orThrow();
  }

  private void awaitGone(String name) {
    ApiWatch watch = volumes().watch();
    try {
      while (volumes().find(name).isPresent()) {
        assertThat(watch.poll(IDLE)).as(name + " deleted").isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      watch.close();
    }
  }

  private void awaitFinalizer(String name) {
    ApiWatch watch = volumes().watch();
    try {
      while (!Meta.finalizers(volumes().get(name)).contains(FINALIZER)) {
        assertThat(watch.poll(IDLE)).as(name + " changed").isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      watch.close();
    }
  }

  @Test
  void aVolumeWithoutTheFinalizerGetsIt() {
    MapValue pv = createVolume("pv1");
    // the admission plugin put it there; an older volume would not have it
    volumes().update(Meta.withFinalizers(pv, List.of()));
    // the server's implementation, that the manager runs, is not seen by awaitIdle
    awaitFinalizer("pv1");
    assertThat(Meta.finalizers(volumes().get("pv1"))).containsExactly(FINALIZER);
  }

  @Test
  void aVolumeWithTheFinalizerIsLeftAlone() {
    createVolume("pv1");
    idle();
    MapValue pv = volumes().get("pv1");
    assertThat(Meta.finalizers(pv)).containsExactly(FINALIZER);
    // a change the controller sees, that needs nothing of it
    String rv = Meta.metaString(volumes().update(Nested.set(pv, Value.of("x"), "metadata",
        "labels", "changed")), "resourceVersion");
    idle();
    assertThat(Meta.metaString(volumes().get("pv1"), "resourceVersion")).isEqualTo(rv);
  }

  @Test
  void aDeletedBoundVolumeKeepsTheFinalizerUntilItIsNotBound() {
    createVolume("pv1");
    setPhase("pv1", "Bound");
    volumes().delete("pv1");
    idle();
    MapValue pv = volumes().get("pv1");
    assertThat(Nested.has(pv, "metadata", "deletionTimestamp")).isTrue();
    assertThat(Meta.finalizers(pv)).containsExactly(FINALIZER);
    setPhase("pv1", "Released");
    awaitGone("pv1");
  }

  @Test
  void aDeletedVolumeThatIsNotBoundLosesTheFinalizer() {
    createVolume("pv1");
    setPhase("pv1", "Available");
    volumes().delete("pv1");
    awaitGone("pv1");
  }
}
