/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Meta;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ttl controller on a server: every Node gets {@code node.alpha.kubernetes.io/ttl} for the
 * cluster's size (kube's pkg/controller/ttl boundaries: 0 up to 100 Nodes, 15 above), Nodes
 * already annotated follow at their next update, and the TTL goes back down only below the
 * next interval's minimum (90).
 */
class TtlScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final String TTL = "node.alpha.kubernetes.io/ttl";

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;
  private final AtomicInteger touches = new AtomicInteger();

  @BeforeEach
  void start() {
    api = ApiServer.builder().bootstrap(false).clock(clock).build();
    controllers = ControllerManager.builder(api).clock(clock).controllers("ttl").start();
  }

  @AfterEach
  void stop() {
    controllers.close();
    api.close();
  }

  private void idle() {
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();
  }

  private ResourceClient nodes() {
    return api.resources("v1", "nodes");
  }

  private void createNodes(int from, int to) {
    for (int i = from; i < to; i++) {
      nodes().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":"
          + "{\"name\":\"node-" + i + "\"}}"));
    }
  }

  private String ttl(String node) {
    return Meta.annotations(nodes().get(node)).get(TTL);
  }

  /** An update of {@code node}, as its kubelet's heartbeat would make. */
  private void touch(String node) {
    nodes().patch(node, PatchType.MERGE_PATCH, "{\"metadata\":{\"labels\":{\"touched\":\""
        + touches.incrementAndGet() + "\"}}}");
  }

  @Test
  void ttlFollowsTheClusterSize() {
    createNodes(0, 3);
    idle();
    assertThat(ttl("node-0")).isEqualTo("0");
    assertThat(ttl("node-2")).isEqualTo("0");
    assertThat(Meta.metaString(nodes().get("node-0"), "name")).isEqualTo("node-0");

    createNodes(3, 101);
    idle();
    assertThat(ttl("node-100")).isEqualTo("15");
    // annotated before the 101st Node came: unchanged until the Node is next updated
    assertThat(ttl("node-0")).isEqualTo("0");
    touch("node-0");
    idle();
    assertThat(ttl("node-0")).isEqualTo("15");

    for (int i = 100; i >= 90; i--) {
      nodes().delete("node-" + i);
    }
    idle();
    // 90 Nodes: still within the second interval (90 to 500)
    touch("node-1");
    idle();
    assertThat(ttl("node-1")).isEqualTo("15");
    nodes().delete("node-89");
    touch("node-1");
    idle();
    assertThat(ttl("node-1")).isEqualTo("0");
  }
}
