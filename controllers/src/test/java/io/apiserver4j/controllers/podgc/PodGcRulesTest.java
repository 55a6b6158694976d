/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podgc;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's pkg/controller/podgc/gc_controller_test.go tables ({@code TestGCTerminated},
 * {@code TestGCUnscheduledTerminating}, and the out-of-service and orphan rules of
 * gc_controller.go), with kube's expected deletions. Pods are created an hour apart, as kube's
 * tests do.
 */
class PodGcRulesTest {
  /** Pods "name:phase[:nodeName[:deleting]]", created an hour apart from the epoch. */
  private static List<MapValue> pods(String... specs) {
    List<MapValue> out = new ArrayList<>();
    Instant created = Instant.EPOCH;
    for (String s : specs) {
      String[] p = s.split(":", -1);
      created = created.plusSeconds(3600);
      String node = p.length > 2 ? p[2] : "node";
      boolean deleting = p.length > 3 && p[3].equals("deleting");
      out.add((MapValue) Json.read("{\"metadata\":{\"name\":\"" + p[0] + "\",\"namespace\":"
          + "\"default\",\"creationTimestamp\":\"" + Meta.formatTime(created) + "\""
          + (deleting ? ",\"deletionTimestamp\":\"1970-01-01T00:00:00Z\"" : "") + "},"
          + "\"spec\":{\"nodeName\":\"" + node + "\"},\"status\":{\"phase\":\"" + p[1]
          + "\"}}"));
    }
    return out;
  }

  private static List<String> names(List<MapValue> pods) {
    return pods.stream().map(p -> Meta.metaString(p, "name")).toList();
  }

  static Stream<Arguments> gcTerminated() {
    return Stream.of(
        // threshold = 0 disables terminated pod deletion
        Arguments.of(List.of("a:Failed", "b:Succeeded"), 0, List.of()),
        Arguments.of(List.of("a:Failed", "b:Succeeded", "c:Failed"), 1, List.of("a", "b")),
        Arguments.of(List.of("a:Running", "b:Succeeded", "c:Failed"), 1, List.of("b")),
        Arguments.of(List.of("a:Failed", "b:Succeeded"), 1, List.of("a")),
        Arguments.of(List.of("a:Failed", "b:Succeeded"), 5, List.of()));
  }

  @ParameterizedTest(name = "{0} threshold {1}")
  @MethodSource
  void gcTerminated(List<String> pods, int threshold, List<String> deleted) {
    assertThat(names(PodGcRules.terminatedOverThreshold(pods(pods.toArray(String[]::new)),
        threshold))).containsExactlyInAnyOrderElementsOf(deleted);
  }

  @Test
  void evictedPodsGoFirstThenTheOldest() {
    List<MapValue> p = new ArrayList<>(pods("a:Succeeded", "b:Failed", "c:Failed"));
    p.set(2, p.get(2).with("status", Json.read("{\"phase\":\"Failed\",\"reason\":\"Evicted\"}")));
    assertThat(names(PodGcRules.terminatedOverThreshold(p, 1))).containsExactly("c", "a");
  }

  static Stream<Arguments> gcUnscheduledTerminating() {
    return Stream.of(
        // Unscheduled pod in any phase must be deleted
        Arguments.of(List.of("a:Failed::deleting", "b:Succeeded::deleting",
            "c:Running::deleting"), List.of("a", "b", "c")),
        // Scheduled pod in any phase must not be deleted
        Arguments.of(List.of("a:Failed:", "b:Succeeded:node", "c:Running:node:deleting"),
            List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void gcUnscheduledTerminating(List<String> pods, List<String> deleted) {
    assertThat(names(PodGcRules.unscheduledTerminating(pods(pods.toArray(String[]::new)))))
        .containsExactlyInAnyOrderElementsOf(deleted);
  }

  private static final String READY = "{\"type\":\"Ready\",\"status\":\"True\"}";
  private static final String NOT_READY = "{\"type\":\"Ready\",\"status\":\"False\"}";
  private static final String OOS =
      "{\"key\":\"node.kubernetes.io/out-of-service\",\"effect\":\"NoExecute\"}";

  private static MapValue node(String name, String ready, String taint) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"taints\":"
        + "[" + taint + "]},\"status\":{\"conditions\":[" + ready + "]}}");
  }

  static Stream<Arguments> gcTerminating() {
    return Stream.of(
        // not Ready and tainted out-of-service: its terminating Pods go, others stay
        Arguments.of(node("node", NOT_READY, OOS), List.of("a:Running:node:deleting",
            "b:Running:node", "c:Succeeded:node:deleting"), List.of("a", "c")),
        // Ready with the taint: nothing
        Arguments.of(node("node", READY, OOS), List.of("a:Running:node:deleting"), List.of()),
        // not Ready without the taint: nothing
        Arguments.of(node("node", NOT_READY, ""), List.of("a:Running:node:deleting"),
            List.of()),
        // a Node the cache does not know: skipped
        Arguments.of(node("other", NOT_READY, OOS), List.of("a:Running:node:deleting"),
            List.of()));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource
  void gcTerminating(MapValue node, List<String> pods, List<String> deleted) {
    Map<String, MapValue> nodes = Map.of(Meta.metaString(node, "name"), node);
    assertThat(names(PodGcRules.terminatingOnOutOfServiceNodes(
        pods(pods.toArray(String[]::new)), n -> Optional.ofNullable(nodes.get(n)))))
        .containsExactlyElementsOf(deleted);
  }

  @Test
  void quarantineKeepsTheEarliestTimeAndReleasesAfterFortySeconds() {
    Quarantine q = new Quarantine();
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    q.add("gone", t0);
    q.add("gone", t0.plusSeconds(20));
    assertThat(q.takeReady(t0.plusSeconds(39))).isEmpty();
    assertThat(q.takeReady(t0.plusSeconds(40))).containsExactly("gone");
    assertThat(q.size()).isZero();
  }

  @Test
  void orphanIsMarkedFailedWithKubesDisruptionCondition() {
    MapValue pod = pods("a:Running").get(0).with("metadata",
        Json.read("{\"name\":\"a\",\"uid\":\"u1\"}"));
    Instant now = Instant.parse("2026-01-01T00:01:00Z");
    assertThat(PodGcController.failedStatusPatch(pod,
        Optional.of(PodGcController.NODE_GONE), now)).contains("{\"metadata\":{\"uid\":\"u1\"},"
        + "\"status\":{\"phase\":\"Failed\",\"conditions\":[{\"type\":\"DisruptionTarget\","
        + "\"status\":\"True\",\"lastTransitionTime\":\"2026-01-01T00:01:00Z\",\"reason\":"
        + "\"DeletionByPodGC\",\"message\":\"PodGC: node no longer exists\"}]}}");
    assertThat(PodGcController.failedStatusPatch(pods("b:Succeeded").get(0), Optional.empty(),
        now)).isEmpty();
  }
}
