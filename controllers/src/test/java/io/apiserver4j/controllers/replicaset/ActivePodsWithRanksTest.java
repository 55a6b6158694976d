/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.replicaset.ActivePodsWithRanks.Ranked;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's deletion order, case by case from {@code active-pods-with-ranks.yaml}. */
class ActivePodsWithRanksTest {
  private static final MapValue SPEC = load();
  private static final Instant NOW = Instant.parse(Nested.str(SPEC, "now"));

  private static MapValue load() {
    try (InputStream in = ActivePodsWithRanksTest.class.getResourceAsStream(
        "active-pods-with-ranks.yaml")) {
      return (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** kube's test helper: a Pod value from the table's short form. */
  static MapValue pod(String name) {
    MapValue p = Nested.map(SPEC, "pods", name);
    boolean ready = Nested.bool(p, "ready");
    MapValue.Builder meta = MapValue.builder().put("name", Value.of(name));
    if (Nested.has(p, "created")) {
      meta.put("creationTimestamp", Value.of(Nested.str(p, "created")));
    }
    if (Nested.has(p, "annotations")) {
      meta.put("annotations", Nested.map(p, "annotations"));
    }
    MapValue.Builder status = MapValue.builder().put("phase", Value.of(Nested.str(p, "phase")));
    if (ready) {
      MapValue.Builder c = MapValue.builder().put("type", Value.of("Ready"))
          .put("status", Value.of("True"));
      if (Nested.has(p, "readySince")) {
        c.put("lastTransitionTime", Value.of(Nested.str(p, "readySince")));
      }
      status.put("conditions", ListValue.of(List.of(c.build())));
      status.put("containerStatuses", ListValue.of(List.of(MapValue.ofEntries(
          "restartCount", Value.of(Nested.integer(p, "restarts"))))));
    }
    return MapValue.ofEntries("metadata", meta.build(),
        "spec", MapValue.ofEntries("nodeName", Value.of(Nested.str(p, "node"))),
        "status", status.build());
  }

  static Stream<Arguments> equal() {
    return Nested.list(SPEC, "equal").stream()
        .map(c -> Arguments.of(str(c, 0), str(c, 1)));
  }

  static Stream<Arguments> less() {
    return Nested.list(SPEC, "less").stream().map(c -> Arguments.of(str(c, 0),
        (int) Nested.integer(((ListValue) c).get(1)), str(c, 2),
        (int) Nested.integer(((ListValue) c).get(3))));
  }

  private static String str(Value list, int i) {
    return Nested.str(((ListValue) list).get(i));
  }

  @ParameterizedTest(name = "{0} ~ {1}")
  @MethodSource
  void equal(String a, String b) {
    Comparator<Ranked> order = ActivePodsWithRanks.order(NOW);
    assertThat(order.compare(new Ranked(pod(a), 1), new Ranked(pod(b), 1))).isZero();
    assertThat(order.compare(new Ranked(pod(b), 1), new Ranked(pod(a), 1))).isZero();
  }

  @ParameterizedTest(name = "{0}@{1} < {2}@{3}")
  @MethodSource
  void less(String lesser, int lesserRank, String greater, int greaterRank) {
    Comparator<Ranked> order = ActivePodsWithRanks.order(NOW);
    Ranked l = new Ranked(pod(lesser), lesserRank);
    Ranked g = new Ranked(pod(greater), greaterRank);
    assertThat(order.compare(l, g)).isNegative();
    assertThat(order.compare(g, l)).isPositive();
  }

  /** kube's getPodsToDelete: ranks count the related active Pods on each node. */
  @Test
  void podsToDeleteRanksByRelatedPodsOnTheSameNode() {
    MapValue alone = Nested.set(pod("ready-then"), Value.of("node-1"), "spec", "nodeName");
    MapValue doubled = Nested.set(pod("ready-then"), Value.of("node-2"), "spec", "nodeName");
    doubled = Nested.set(doubled, Value.of("doubled"), "metadata", "name");
    MapValue neighbour = Nested.set(doubled, Value.of("neighbour"), "metadata", "name");
    List<MapValue> related = new ArrayList<>(List.of(alone, doubled, neighbour));
    assertThat(ActivePodsWithRanks.podsToDelete(List.of(alone, doubled), related, 1, NOW))
        .containsExactly(doubled);
    // everything goes: no sorting needed
    assertThat(ActivePodsWithRanks.podsToDelete(List.of(alone, doubled), related, 2, NOW))
        .containsExactly(alone, doubled);
  }
}
