/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The disruption controller's computations against kube's disruption.go and its
 * disruption_test.go cases (TestUnavailable, TestIntegerMaxUnavailable,
 * TestReplicaSet's 50% rounding, TestUpdateDisruptedPods, TestBasicFinderFunctions' missing
 * controller), with {@code intstr.GetScaledValueFromIntOrPercent}'s rounding up.
 */
class DisruptionUnitTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

  @ParameterizedTest(name = "{0} of {1}")
  @CsvSource({
      "'\"50%\"', 3, 2",
      "'\"30%\"', 4, 2",
      "'\"0%\"', 7, 0",
      "'\"100%\"', 5, 5",
      "'\"28%\"', 10, 3",
      "2, 10, 2",
  })
  void scaledRoundsPercentagesUp(String value, long total, long expected) {
    assertThat(DisruptionController.scaled(Json.read(value), total)).isEqualTo(expected);
  }

  @Test
  void aStringThatIsNoPercentageFailsTheSync() {
    assertThatThrownBy(() -> DisruptionController.scaled(Json.read("\"5\""), 10))
        .isInstanceOf(DisruptionController.SyncException.class);
  }

  private static MapValue pod(String name, boolean ready, String ownerUid, boolean deleting) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"ns\""
        + (ownerUid == null ? "" : ",\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":"
        + "\"ReplicaSet\",\"name\":\"rs\",\"uid\":\"" + ownerUid + "\",\"controller\":true}]")
        + (deleting ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "")
        + "},\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\""
        + (ready ? "True" : "False") + "\"}]}}");
  }

  private static MapValue pdb(String spec) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"},"
        + "\"spec\":{" + spec + "}}");
  }

  /** kube's TestUnavailable shape: minAvailable 3 of 4 Pods. */
  @Test
  void integerMinAvailableCountsSelectedPods() {
    List<MapValue> pods = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      pods.add(pod("p" + i, true, null, false));
    }
    DisruptionController.Counts c = DisruptionController.expectedCounts(
        pdb("\"minAvailable\":3"), pods, (ref, ns) -> Optional.empty());
    assertThat(c).isEqualTo(new DisruptionController.Counts(4, 3));
    assertThat(DisruptionController.countHealthy(pods, Map.of(), NOW)).isEqualTo(4);
  }

  /** Percent and maxUnavailable use the controllers' scale, each controller once. */
  @Test
  void percentagesUseTheControllersScale() {
    List<MapValue> pods = List.of(pod("a", true, "rs-1", false), pod("b", true, "rs-1", false),
        pod("c", false, null, false));
    DisruptionController.ScaleFinder finder =
        (ref, ns) -> Optional.of(new DisruptionController.Scale("rs-1", 5));
    assertThat(DisruptionController.expectedCounts(pdb("\"minAvailable\":\"50%\""), pods,
        finder)).isEqualTo(new DisruptionController.Counts(5, 3));
    // kube's TestIntegerMaxUnavailable: desired is expected less maxUnavailable
    assertThat(DisruptionController.expectedCounts(pdb("\"maxUnavailable\":1"), pods, finder))
        .isEqualTo(new DisruptionController.Counts(5, 4));
    assertThat(DisruptionController.expectedCounts(pdb("\"maxUnavailable\":9"), pods, finder))
        .isEqualTo(new DisruptionController.Counts(5, 0));
  }

  @Test
  void podWhoseControllerIsNotFoundFailsTheSync() {
    assertThatThrownBy(() -> DisruptionController.expectedCounts(
        pdb("\"maxUnavailable\":\"10%\""), List.of(pod("a", true, "gone", false)),
        (ref, ns) -> Optional.empty()))
        .isInstanceOf(DisruptionController.SyncException.class)
        .hasMessage("found no controllers for pod \"a\"");
  }

  /**
   * kube's buildDisruptedPodMap and countHealthyPods (TestUpdateDisruptedPods): entries of
   * Pods being deleted or gone are dropped, expired ones too; the rest are not healthy and set
   * the recheck time.
   */
  @Test
  void disruptedPods() {
    String recent = "2026-01-01T00:09:00Z";
    String expired = "2026-01-01T00:07:00Z";
    MapValue budget = (MapValue) Json.read("{\"status\":{\"disruptedPods\":{\"recent\":\""
        + recent + "\",\"expired\":\"" + expired + "\",\"deleting\":\"" + recent
        + "\",\"gone\":\"" + recent + "\"}}}");
    List<MapValue> pods = List.of(pod("recent", true, null, false),
        pod("expired", true, null, false), pod("deleting", true, null, true),
        pod("other", true, null, false));
    Map<String, Instant> out = new LinkedHashMap<>();
    Optional<Instant> recheck = DisruptionController.disruptedPods(pods, budget, NOW, out);
    assertThat(out).containsOnlyKeys("recent");
    assertThat(recheck).contains(Instant.parse(recent).plusSeconds(120));
    assertThat(DisruptionController.countHealthy(pods, out, NOW)).isEqualTo(2);
  }

  /** meta.SetStatusCondition: the transition time moves only with the status. */
  @Test
  void conditionTransitionTimeMovesWithStatusOnly() {
    MapValue status = MapValue.ofEntries("conditions", DisruptionController.setCondition(
        MapValue.empty(), "True", "SufficientPods", "", 1, Instant.parse("2026-01-01T00:00:00Z")));
    Value same = DisruptionController.setCondition(status, "True", "SufficientPods", "", 2,
        NOW).get(0);
    assertThat(same).isEqualTo(Json.read("{\"type\":\"DisruptionAllowed\",\"status\":\"True\","
        + "\"observedGeneration\":2,\"lastTransitionTime\":\"2026-01-01T00:00:00Z\","
        + "\"reason\":\"SufficientPods\",\"message\":\"\"}"));
    Value flipped = DisruptionController.setCondition(status, "False", "InsufficientPods", "",
        2, NOW).get(0);
    assertThat(flipped).isEqualTo(Json.read("{\"type\":\"DisruptionAllowed\",\"status\":"
        + "\"False\",\"observedGeneration\":2,\"lastTransitionTime\":\"2026-01-01T00:10:00Z\","
        + "\"reason\":\"InsufficientPods\",\"message\":\"\"}"));
  }
}
