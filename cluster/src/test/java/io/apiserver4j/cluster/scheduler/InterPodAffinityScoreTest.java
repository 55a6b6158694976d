/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * InterPodAffinity's normalized scores on cases of kube's {@code TestPreferredAffinity}
 * (pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go): its Pods, Nodes and
 * expected NodeScoreList, names kept.
 */
class InterPodAffinityScoreTest {
  private static final String STAY_WITH_S1_IN_REGION = "{\"podAffinity\":{"
      + "\"preferredDuringSchedulingIgnoredDuringExecution\":[{\"weight\":5,\"podAffinityTerm\":"
      + "{\"labelSelector\":{\"matchExpressions\":[{\"key\":\"security\",\"operator\":\"In\","
      + "\"values\":[\"S1\"]}]},\"topologyKey\":\"region\"}}]}}";
  private static final String STAY_WITH_S2_IN_REGION = STAY_WITH_S1_IN_REGION
      .replace("\"S1\"", "\"S2\"").replace("\"weight\":5", "\"weight\":6");

  private static MapValue pod(String node, String labels, String affinity) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"p\",\"labels\":" + labels
        + "},\"spec\":{\"nodeName\":\"" + node + "\"" + (affinity.isEmpty() ? ""
            : ",\"affinity\":" + affinity) + "}}");
  }

  private static Map<String, Long> scores(MapValue pod, Map<String, String> nodeLabels,
      List<MapValue> pods) {
    Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    nodeLabels.forEach((name, labels) -> nodes.put(name, new NodeInfo((MapValue) Json.read(
        "{\"metadata\":{\"name\":\"" + name + "\",\"labels\":" + labels + "}}"))));
    for (MapValue p : pods) {
      nodes.get(Nested.str(p, "spec", "nodeName")).add(p);
    }
    List<NodeInfo> all = new ArrayList<>(nodes.values());
    InterPodAffinityScore score = new InterPodAffinityScore(pod, all, ns -> Map.of());
    return score.normalized(all);
  }

  private static Map<String, String> nodes(String... namesAndLabels) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < namesAndLabels.length; i += 2) {
      out.put(namesAndLabels[i], namesAndLabels[i + 1]);
    }
    return out;
  }

  @Test
  void allNodesAreSamePriorityAsAffinityIsNil() {
    InterPodAffinityScore score = new InterPodAffinityScore(pod("", "{\"security\":\"S1\"}",
        ""), List.of(new NodeInfo((MapValue) Json.read("{\"metadata\":{\"name\":\"node1\","
            + "\"labels\":{\"region\":\"China\"}}}"))), ns -> Map.of());
    assertThat(score.skip()).isTrue();
  }

  @Test
  void podThatMatchesTopologyKeyAndPodsInNodesGetsHighScore() {
    String s1 = "{\"security\":\"S1\"}";
    assertThat(scores(pod("", s1, STAY_WITH_S1_IN_REGION),
        nodes("node1", "{\"region\":\"China\"}", "node2", "{\"region\":\"India\"}",
            "node3", "{\"az\":\"az1\"}"),
        List.of(pod("node1", s1, ""), pod("node2", "{\"security\":\"S2\"}", ""),
            pod("node3", s1, ""))))
        .containsExactly(Map.entry("node1", 100L), Map.entry("node2", 0L),
            Map.entry("node3", 0L));
  }

  @Test
  void nodesWithTheSameTopologyValueAsAMatchingPodHaveTheSameScore() {
    assertThat(scores(pod("", "{}", STAY_WITH_S1_IN_REGION),
        nodes("node1", "{\"region\":\"China\"}",
            "node2", "{\"region\":\"China\",\"az\":\"az1\"}", "node3", "{\"region\":\"India\"}"),
        List.of(pod("node1", "{\"security\":\"S1\"}", ""))))
        .containsExactly(Map.entry("node1", 100L), Map.entry("node2", 100L),
            Map.entry("node3", 0L));
  }

  @Test
  void theRegionWithMoreMatchingPodsScoresHigher() {
    String s2 = "{\"security\":\"S2\"}";
    List<MapValue> pods = new ArrayList<>();
    for (String n : List.of("node1", "node1", "node2", "node3", "node4", "node5")) {
      pods.add(pod(n, s2, ""));
    }
    String china = "{\"region\":\"China\"}";
    String india = "{\"region\":\"India\"}";
    assertThat(scores(pod("", "{\"security\":\"S1\"}", STAY_WITH_S2_IN_REGION),
        nodes("node1", china, "node2", india, "node3", china, "node4", china, "node5", india),
        pods))
        .containsExactly(Map.entry("node1", 100L), Map.entry("node2", 0L),
            Map.entry("node3", 100L), Map.entry("node4", 100L), Map.entry("node5", 0L));
  }

  @Test
  void anExistingPodsRequiredAffinityPullsTheIncomingPod() {
    // kube's hardPodAffinityWeight 1: the existing Pod's required term, matched by the Pod
    MapValue existing = pod("node1", "{}", "{\"podAffinity\":{"
        + "\"requiredDuringSchedulingIgnoredDuringExecution\":[{\"labelSelector\":"
        + "{\"matchLabels\":{\"security\":\"S1\"}},\"topologyKey\":\"region\"}]}}");
    assertThat(scores(pod("", "{\"security\":\"S1\"}", ""),
        nodes("node1", "{\"region\":\"China\"}", "node2", "{\"region\":\"India\"}"),
        List.of(existing)))
        .containsExactly(Map.entry("node1", 100L), Map.entry("node2", 0L));
  }
}
