/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/** A server on a test clock with a namespace {@code ns}, a simulated cluster and controllers. */
final class ClusterFixture implements AutoCloseable {
  static final Duration IDLE = Duration.ofSeconds(30);
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
  final ApiServer api;
  final SimulatedCluster cluster;
  final ControllerManager controllers;

  ClusterFixture(UnaryOperator<SimulatedCluster.Builder> config, String controllerFlag) {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    cluster = config.apply(SimulatedCluster.builder(api).clock(clock)).start();
    controllers = controllerFlag.isEmpty() ? null
        : ControllerManager.builder(api).clock(clock).controllers(controllerFlag).start();
    // Nodes registered, Ready and without admission's not-ready taint before a test begins
    idle();
  }

  ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  MapValue createPod(String json) {
    return pods().create(Json.read(json));
  }

  void idle() {
    // each side writes what the other reacts to: idle only when both are, one after the other
    for (int i = 0; i < 100; i++) {
      long before = api.store().currentRevision();
      assertThat(cluster.awaitIdle(IDLE)).as("cluster idle").isTrue();
      if (controllers != null) {
        assertThat(controllers.awaitIdle(IDLE)).as("controllers idle").isTrue();
      }
      if (api.store().currentRevision() == before) {
        return;
      }
    }
    throw new AssertionError("the cluster and controllers never settled");
  }

  void advance(Duration d) {
    clock.advance(d);
    idle();
  }

  /**
   * Moves the clock to {@code target} in steps of at most {@code step} (a controller's period),
   * waiting for the cluster to settle after each.
   */
  void advanceTo(Instant target, Duration step) {
    while (clock.instant().isBefore(target)) {
      Instant next = clock.instant().plus(step);
      clock.set(next.isBefore(target) ? next : target);
      idle();
    }
  }

  List<MapValue> events(String namespace) {
    return api.resources("events.k8s.io/v1", "events").namespace(namespace).list();
  }

  @Override
  public void close() {
    if (controllers != null) {
      controllers.close();
    }
    cluster.close();
    api.close();
  }
}
