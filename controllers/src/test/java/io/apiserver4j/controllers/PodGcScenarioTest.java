/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The pod garbage collector on a server whose clock the test moves (kube's
 * pkg/controller/podgc: a pass every 20 s, Node names in quarantine for 40 s): terminated Pods
 * over {@code --terminated-pod-gc-threshold} go oldest first; a Pod bound to a Node that does
 * not exist is marked Failed with {@code DisruptionTarget}/{@code DeletionByPodGC} and deleted
 * once its Node has been missing through the quarantine; terminating Pods never scheduled, or on
 * a not-Ready out-of-service Node, are marked Failed and force-deleted. Pods that must stay
 * visible after their deletion keep a finalizer.
 */
class PodGcScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("podgc", b -> b.terminatedPodGcThreshold(2));
    scenario.idle();
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private void node(String name, String ready, String taints) {
    MapValue n = api.resources(NODES).create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"taints\":[" + taints + "]}}"));
    status(NODES, "", n.with("status", Json.read("{\"conditions\":[{\"type\":\"Ready\","
        + "\"status\":\"" + ready + "\"}]}")));
  }

  private void pod(String name, String nodeName, boolean finalizer) {
    pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\"" + (finalizer ? ",\"finalizers\":[\"example.com/keep\"]" : "") + "},"
        + "\"spec\":{" + (nodeName.isEmpty() ? "" : "\"nodeName\":\"" + nodeName + "\",")
        + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}"));
  }

  private void phase(String pod, String phase) {
    status(PODS, "ns", pods().get(pod).with("status", Json.read("{\"phase\":\"" + phase
        + "\"}")));
  }

  private void status(GroupVersionResource resource, String namespace, MapValue object) {
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, resource).namespace(namespace)
        .name(io.apiserver4j.core.Meta.metaString(object, "name")).subresource("status")
        .options(UpdateOptions.defaults()).body(object).build()).orThrow();
  }

  private Optional<Value> condition(MapValue pod, String type) {
    return Nested.list(pod, "status", "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(type)).findFirst();
  }

  @Test
  void terminatedPodsOverTheThresholdGoOldestFirst() {
    node("n1", "True", "");
    for (String name : new String[] {"a", "b", "c", "d"}) {
      pod(name, "n1", false);
      clock.set(clock.instant().plusSeconds(1));
    }
    phase("a", "Succeeded");
    phase("b", "Failed");
    phase("d", "Succeeded");
    scenario.idle();
    assertThat(pods().list()).hasSize(4);
    scenario.advance(20);
    assertThat(pods().find("a")).isEmpty();
    assertThat(pods().find("b")).isPresent();
    assertThat(pods().find("c")).isPresent();
    assertThat(pods().find("d")).isPresent();
    scenario.advance(20);
    assertThat(pods().list()).hasSize(3);
  }

  @Test
  void podOfAMissingNodeIsDeletedAfterTheQuarantine() {
    pod("orphan", "gone", true);
    scenario.advance(20); // first seen: the Node name enters quarantine until +60 s
    scenario.advance(20);
    MapValue pod = pods().get("orphan");
    assertThat(Nested.has(pod, "metadata", "deletionTimestamp")).isFalse();
    assertThat(Nested.str(pod, "status", "phase")).isNotEqualTo("Failed");
    scenario.advance(20);
    pod = pods().get("orphan");
    assertThat(Nested.has(pod, "metadata", "deletionTimestamp")).isTrue();
    assertThat(Nested.str(pod, "status", "phase")).isEqualTo("Failed");
    Value c = condition(pod, "DisruptionTarget").orElseThrow();
    assertThat(Nested.str(c, "status")).isEqualTo("True");
    assertThat(Nested.str(c, "reason")).isEqualTo("DeletionByPodGC");
    assertThat(Nested.str(c, "message")).isEqualTo("PodGC: node no longer exists");
    assertThat(Nested.str(c, "lastTransitionTime")).isEqualTo("2026-01-01T00:01:00Z");
  }

  @Test
  void podOfANodeCreatedDuringTheQuarantineStays() {
    pod("late", "slow", false);
    scenario.advance(20);
    node("slow", "True", "");
    scenario.advance(20);
    scenario.advance(20);
    scenario.advance(20);
    assertThat(Nested.str(pods().get("late"), "status", "phase")).isNotEqualTo("Failed");
  }

  @Test
  void unscheduledTerminatingPodIsMarkedFailedAndForceDeleted() {
    pod("pending", "", true);
    pods().delete("pending");
    scenario.advance(20);
    MapValue pod = pods().get("pending");
    assertThat(Nested.str(pod, "status", "phase")).isEqualTo("Failed");
    assertThat(condition(pod, "DisruptionTarget")).isEmpty();
  }

  @Test
  void terminatingPodOnAnOutOfServiceNodeIsMarkedFailed() {
    node("down", "False",
        "{\"key\":\"node.kubernetes.io/out-of-service\",\"effect\":\"NoExecute\"}");
    node("up", "True", "");
    pod("stuck", "down", true);
    pod("fine", "up", true);
    phase("stuck", "Running");
    phase("fine", "Running");
    pods().delete("stuck");
    pods().delete("fine");
    scenario.advance(20);
    assertThat(Nested.str(pods().get("stuck"), "status", "phase")).isEqualTo("Failed");
    assertThat(Nested.str(pods().get("fine"), "status", "phase")).isEqualTo("Running");
  }
}
