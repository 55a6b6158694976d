/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * PodTopologySpread's normalized scores on the cases of kube's {@code TestPodTopologySpreadScore}
 * and {@code TestPreScoreSkip} (pkg/scheduler/framework/plugins/podtopologyspread/
 * scoring_test.go) that this model expresses: their Pods, Nodes and expected NodeScoreList,
 * names kept. The cases that switch kube's feature gates off (node inclusion policies,
 * matchLabelKeys) are left out: those features are always on here, as in 1.36.
 */
class PodTopologySpreadScoreTest {
  private static final String FOO = "{\"matchExpressions\":[{\"key\":\"foo\","
      + "\"operator\":\"Exists\"}]}";
  private static final String BAR = FOO.replace("foo", "bar");
  private static final String HOST = "kubernetes.io/hostname";

  /** {@code st.MakePod().Label(...).SpreadConstraint(...)}: {@code spread} is a JSON list. */
  private static MapValue pod(String labels, String spread) {
    return pod(labels, spread, "");
  }

  private static MapValue pod(String labels, String spread, String extraSpec) {
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\","
        + "\"labels\":" + labels + "},\"spec\":{\"topologySpreadConstraints\":" + spread
        + extraSpec + "}}");
  }

  private static String constraint(int maxSkew, String key, String selector) {
    return constraint(maxSkew, key, selector, "");
  }

  private static String constraint(int maxSkew, String key, String selector, String extra) {
    return "{\"maxSkew\":" + maxSkew + ",\"topologyKey\":\"" + key + "\","
        + "\"whenUnsatisfiable\":\"ScheduleAnyway\""
        + (selector == null ? "" : ",\"labelSelector\":" + selector) + extra + "}";
  }

  private static String list(String... items) {
    return "[" + String.join(",", items) + "]";
  }

  /** An existing Pod: name, node, labels JSON, then optional "ns1" or "terminating". */
  private static MapValue existing(String name, String node, String labels, String... how) {
    String namespace = List.of(how).contains("ns1") ? "ns1" : "default";
    String deletion = List.of(how).contains("terminating")
        ? ",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\"" : "";
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\""
        + namespace + "\",\"labels\":" + labels + deletion + "},\"spec\":{\"nodeName\":\""
        + node + "\"}}");
  }

  /** {@code count} Pods labelled {@code labels} on {@code node}. */
  private static List<MapValue> on(String node, int count, String labels) {
    List<MapValue> out = new ArrayList<>();
    for (int i = 1; i <= count; i++) {
      out.add(existing("p-" + node + i, node, labels));
    }
    return out;
  }

  @SafeVarargs
  private static List<MapValue> pods(List<MapValue>... groups) {
    List<MapValue> out = new ArrayList<>();
    for (List<MapValue> g : groups) {
      out.addAll(g);
    }
    return out;
  }

  private static Map<String, String> nodes(String... namesAndLabels) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < namesAndLabels.length; i += 2) {
      out.put(namesAndLabels[i], namesAndLabels[i + 1]);
    }
    return out;
  }

  private static String host(String name) {
    return "{\"" + HOST + "\":\"" + name + "\"}";
  }

  private static String zoneHost(String zone, String name) {
    return "{\"zone\":\"" + zone + "\",\"" + HOST + "\":\"" + name + "\"}";
  }

  private static Map<String, Long> scores(MapValue pod, Map<String, String> feasible,
      Map<String, String> failed, List<MapValue> existing) {
    return scores(pod, feasible, failed, existing, Optional.empty(), "");
  }

  private static Map<String, Long> scores(MapValue pod, Map<String, String> feasible,
      Map<String, String> failed, List<MapValue> existing,
      Optional<LabelSelector> defaultSelector, String taintedNode) {
    Map<String, NodeInfo> all = new LinkedHashMap<>();
    List<NodeInfo> candidates = new ArrayList<>();
    Map<String, String> every = new LinkedHashMap<>(feasible);
    every.putAll(failed);
    every.forEach((name, labels) -> {
      String taints = name.equals(taintedNode)
          ? ",\"spec\":{\"taints\":[{\"key\":\"foo\",\"value\":\"\",\"effect\":\"NoSchedule\"}]}"
          : "";
      NodeInfo info = new NodeInfo((MapValue) Json.read("{\"metadata\":{\"name\":\"" + name
          + "\",\"labels\":" + labels + "}" + taints + "}"));
      all.put(name, info);
      if (feasible.containsKey(name)) {
        candidates.add(info);
      }
    });
    for (MapValue p : existing) {
      all.get(Nested.str(p, "spec", "nodeName")).add(p);
    }
    PodTopologySpreadScore score = new PodTopologySpreadScore(pod, new ArrayList<>(all.values()),
        candidates, defaultSelector);
    assertThat(score.skip()).isFalse();
    return score.normalized(candidates);
  }

  @SuppressWarnings("unchecked")
  private static Map.Entry<String, Long>[] want(Object... namesAndScores) {
    List<Map.Entry<String, Long>> out = new ArrayList<>();
    for (int i = 0; i < namesAndScores.length; i += 2) {
      out.add(Map.entry((String) namesAndScores[i], ((Integer) namesAndScores[i + 1])
          .longValue()));
    }
    return out.toArray(new Map.Entry[0]);
  }

  private static final String L_FOO = "{\"foo\":\"\"}";
  private static final String L_BAR = "{\"bar\":\"\"}";
  private static final String L_FOO_BAR = "{\"foo\":\"\",\"bar\":\"\"}";

  @Test
  void thePodDoesNotHaveSoftTopologySpreadConstraints() {
    PodTopologySpreadScore score = new PodTopologySpreadScore((MapValue) Json.read(
        "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"}}"), List.of(), List.of(),
        Optional.empty());
    assertThat(score.skip()).isTrue();
  }

  @Test
  void defaultConstraintsAndAReplicasetThatDoesNotMatch() {
    // kube's DefaultSelector of a Pod whose ReplicaSet is not found has no requirement
    PodTopologySpreadScore score = new PodTopologySpreadScore((MapValue) Json.read(
        "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"labels\":{\"foo\":\"bar\","
            + "\"baz\":\"sup\"}}}"), List.of(), List.of(),
        Optional.of(LabelSelector.ofEquals(Map.of())));
    assertThat(score.skip()).isTrue();
  }

  @Test
  void oneConstraintOnNodeNoExistingPods() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", host("node-b")), Map.of(), List.of()))
        .containsExactly(want("node-a", 100, "node-b", 100));
  }

  @Test
  void oneConstraintOnNodeOnlyOneNodeIsCandidate() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a")), nodes("node-b", host("node-b")),
        pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO))))
        .containsExactly(want("node-a", 100));
  }

  @Test
  void oneConstraintOnNodeAllNodesHaveTheSameNumberOfMatchingPods() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", host("node-b")), Map.of(),
        pods(on("node-a", 1, L_FOO), on("node-b", 1, L_FOO))))
        .containsExactly(want("node-a", 100, "node-b", 100));
  }

  private static Map<String, String> fourHosts() {
    return nodes("node-a", host("node-a"), "node-b", host("node-b"), "node-c", host("node-c"),
        "node-d", host("node-d"));
  }

  @Test
  void oneConstraintOnNodeAll4NodesAreCandidates() {
    // matching pods spread as 2/1/0/3
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))), fourHosts(), Map.of(),
        pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO), on("node-d", 3, L_FOO))))
        .containsExactly(want("node-a", 20, "node-b", 60, "node-c", 100,
            "node-d", 0));
  }

  @Test
  void oneConstraintOnNodeNullSelector() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, null))), fourHosts(), Map.of(),
        pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO), on("node-d", 3, L_FOO))))
        .containsExactly(want("node-a", 100, "node-b", 100, "node-c", 100,
            "node-d", 100));
  }

  @Test
  void oneConstraintOnNodeAll4NodesAreCandidatesMaxSkew2() {
    assertThat(scores(pod(L_FOO, list(constraint(2, HOST, FOO))), fourHosts(), Map.of(),
        pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO), on("node-d", 3, L_FOO))))
        .containsExactly(want("node-a", 33, "node-b", 66, "node-c", 100,
            "node-d", 16));
  }

  private static List<MapValue> fourThreeTwoOne() {
    return pods(on("node-a", 4, L_FOO), on("node-b", 3, L_FOO), on("node-c", 2, L_FOO),
        on("node-d", 1, L_FOO));
  }

  @Test
  void oneConstraintOnNodeAll4NodesAreCandidatesMaxSkew3() {
    assertThat(scores(pod(L_FOO, list(constraint(3, HOST, FOO))), fourHosts(), Map.of(),
        fourThreeTwoOne()))
        .containsExactly(want("node-a", 44, "node-b", 66, "node-c", 77,
            "node-d", 100));
  }

  @Test
  void systemDefaultingNodesDoNotHaveZonePodsMatchService() {
    // the Service selects foo="": the Pod's DefaultSelector
    MapValue pod = (MapValue) Json.read("{\"metadata\":{\"name\":\"p\",\"namespace\":"
        + "\"default\",\"labels\":" + L_FOO + "}}");
    assertThat(scores(pod, fourHosts(), Map.of(), fourThreeTwoOne(),
        Optional.of(LabelSelector.ofEquals(Map.of("foo", ""))), ""))
        .containsExactly(want("node-a", 44, "node-b", 66, "node-c", 77,
            "node-d", 100));
  }

  private static List<MapValue> fourTwoOneThree() {
    return pods(on("node-a", 4, L_FOO), on("node-b", 2, L_FOO), on("node-x", 1, L_FOO),
        on("node-y", 3, L_FOO));
  }

  @Test
  void oneConstraintOnNode3OutOf4NodesAreCandidates() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", host("node-b"), "node-x", host("node-x")),
        nodes("node-y", host("node-y")), fourTwoOneThree()))
        .containsExactly(want("node-a", 33, "node-b", 83, "node-x", 100));
  }

  @Test
  void oneConstraintOnNode3OutOf4NodesAreCandidatesOneNodeDoesNotMatchTopologyKey() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", "{\"n\":\"node-b\"}",
            "node-x", host("node-x")),
        nodes("node-y", host("node-y")), fourTwoOneThree()))
        .containsExactly(want("node-a", 16, "node-b", 0, "node-x", 100));
  }

  @Test
  void oneConstraintOnZone3OutOf4NodesAreCandidates() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "zone", FOO))),
        nodes("node-a", zoneHost("zone1", "node-a"), "node-b", zoneHost("zone1", "node-b"),
            "node-x", zoneHost("zone2", "node-x")),
        nodes("node-y", zoneHost("zone2", "node-y")), fourTwoOneThree()))
        .containsExactly(want("node-a", 75, "node-b", 75, "node-x", 100));
  }

  @Test
  void twoConstraintsOnZoneAndNode2OutOf4NodesAreCandidates() {
    // matching pods spread as 2/~1~/2/~4~
    assertThat(scores(pod(L_FOO, list(constraint(1, "zone", FOO), constraint(1, HOST, FOO))),
        nodes("node-a", zoneHost("zone1", "node-a"), "node-x", zoneHost("zone2", "node-x")),
        nodes("node-b", zoneHost("zone1", "node-b"), "node-y", zoneHost("zone2", "node-y")),
        pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO), on("node-x", 2, L_FOO),
            on("node-y", 4, L_FOO))))
        .containsExactly(want("node-a", 100, "node-x", 63));
  }

  private static Map<String, String> twoZones() {
    return nodes("node-a", zoneHost("zone1", "node-a"), "node-b", zoneHost("zone1", "node-b"),
        "node-x", zoneHost("zone2", "node-x"), "node-y", zoneHost("zone2", "node-y"));
  }

  @Test
  void twoConstraintsOnZoneAndNodeWithDifferentLabelSelectors() {
    assertThat(scores(pod(L_FOO_BAR, list(constraint(1, "zone", FOO),
            constraint(1, HOST, BAR))), twoZones(), Map.of(),
        List.of(existing("p-a1", "node-a", L_FOO), existing("p-b1", "node-b", L_FOO_BAR),
            existing("p-y1", "node-y", L_FOO), existing("p-y2", "node-y", L_BAR))))
        .containsExactly(want("node-a", 60, "node-b", 20, "node-x", 100,
            "node-y", 60));
  }

  @Test
  void twoConstraintsOnZoneAndNodeWithDifferentLabelSelectorsSomeNodesHave0Pods() {
    assertThat(scores(pod(L_FOO_BAR, list(constraint(1, "zone", FOO),
            constraint(1, HOST, BAR))), twoZones(), Map.of(),
        List.of(existing("p-b1", "node-b", L_BAR), existing("p-x1", "node-x", L_FOO),
            existing("p-y1", "node-y", L_FOO_BAR))))
        .containsExactly(want("node-a", 100, "node-b", 60, "node-x", 40,
            "node-y", 0));
  }

  @Test
  void twoConstraintsOnZoneAndNodeWithDifferentLabelSelectors3OutOf4NodesAreCandidates() {
    Map<String, String> feasible = new LinkedHashMap<>(twoZones());
    feasible.remove("node-y");
    assertThat(scores(pod(L_FOO_BAR, list(constraint(1, "zone", FOO),
            constraint(1, HOST, BAR))), feasible,
        nodes("node-y", zoneHost("zone2", "node-y")),
        List.of(existing("p-a1", "node-a", L_FOO), existing("p-b1", "node-b", L_FOO_BAR),
            existing("p-y1", "node-y", L_FOO), existing("p-y2", "node-y", L_BAR))))
        .containsExactly(want("node-a", 50, "node-b", 25, "node-x", 100));
  }

  @Test
  void existingPodsInADifferentNamespaceDoNotCount() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", host("node-b")), Map.of(),
        List.of(existing("p-a1", "node-a", L_FOO, "ns1"), existing("p-a2", "node-a", L_FOO),
            existing("p-b1", "node-b", L_FOO), existing("p-b2", "node-b", L_FOO))))
        .containsExactly(want("node-a", 100, "node-b", 33));
  }

  @Test
  void terminatingPodsShouldBeExcluded() {
    assertThat(scores(pod(L_FOO, list(constraint(1, HOST, FOO))),
        nodes("node-a", host("node-a"), "node-b", host("node-b")), Map.of(),
        List.of(existing("p-a", "node-a", L_FOO, "terminating"),
            existing("p-b", "node-b", L_FOO))))
        .containsExactly(want("node-a", 100, "node-b", 0));
  }

  private static Map<String, String> nodeKeyed(String fooOn) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String n : List.of("node-a", "node-b", "node-c")) {
      out.put(n, "{\"node\":\"" + n + "\"" + (fooOn.contains(n) ? ",\"foo\":\"\"" : "")
          + "}");
    }
    return out;
  }

  @Test
  void minDomainsHasNoEffectWhenScheduleAnyway() {
    assertThat(scores(pod(L_FOO, list(constraint(2, "node", FOO, ",\"minDomains\":10"))),
        nodeKeyed(""), Map.of(),
        pods(on("node-a", 2, L_FOO), on("node-b", 2, L_FOO), on("node-c", 1, L_FOO))))
        .containsExactly(want("node-a", 75, "node-b", 75, "node-c", 100));
  }

  private static List<MapValue> twoOneOne() {
    return pods(on("node-a", 2, L_FOO), on("node-b", 1, L_FOO), on("node-c", 1, L_FOO));
  }

  private static final String NODE_SELECTOR = ",\"nodeSelector\":{\"foo\":\"\"}";
  private static final String NODE_AFFINITY = ",\"affinity\":{\"nodeAffinity\":{"
      + "\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{"
      + "\"matchExpressions\":[{\"key\":\"foo\",\"operator\":\"In\",\"values\":[\"\"]}]}]}}}";
  private static final String IGNORE_AFFINITY = ",\"nodeAffinityPolicy\":\"Ignore\"";

  @Test
  void nodeAffinityPolicyHonoredWithLabelSelectors() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO)), NODE_SELECTOR),
        nodeKeyed("node-a node-b"), Map.of(), twoOneOne()))
        .containsExactly(want("node-a", 0, "node-b", 33, "node-c", 100));
  }

  @Test
  void nodeAffinityPolicyIgnoredWithLabelSelectors() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO, IGNORE_AFFINITY)),
            NODE_SELECTOR), nodeKeyed("node-a node-b"), Map.of(), twoOneOne()))
        .containsExactly(want("node-a", 66, "node-b", 100, "node-c", 100));
  }

  @Test
  void nodeAffinityPolicyHonoredWithNodeAffinity() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO)), NODE_AFFINITY),
        nodeKeyed("node-a node-b"), Map.of(), twoOneOne()))
        .containsExactly(want("node-a", 0, "node-b", 33, "node-c", 100));
  }

  @Test
  void nodeAffinityPolicyIgnoredWithNodeAffinity() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO, IGNORE_AFFINITY)),
            NODE_AFFINITY), nodeKeyed("node-a node-b"), Map.of(), twoOneOne()))
        .containsExactly(want("node-a", 66, "node-b", 100, "node-c", 100));
  }

  @Test
  void nodeTaintsPolicyHonored() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO,
            ",\"nodeTaintsPolicy\":\"Honor\""))), nodeKeyed(""), Map.of(), twoOneOne(),
        Optional.empty(), "node-c"))
        .containsExactly(want("node-a", 0, "node-b", 33, "node-c", 100));
  }

  @Test
  void nodeTaintsPolicyIgnored() {
    assertThat(scores(pod(L_FOO, list(constraint(1, "node", FOO))), nodeKeyed(""), Map.of(),
        twoOneOne(), Optional.empty(), "node-c"))
        .containsExactly(want("node-a", 66, "node-b", 100, "node-c", 100));
  }

  private static Map<String, String> twoZonesCd() {
    return nodes("node-a", zoneHost("zone1", "node-a"), "node-b", zoneHost("zone1", "node-b"),
        "node-c", zoneHost("zone2", "node-c"), "node-d", zoneHost("zone2", "node-d"));
  }

  @Test
  void matchLabelKeysAndedWithLabelSelectorWhenLabelSelectorIsEmpty() {
    assertThat(scores(pod(L_FOO_BAR, list(
            constraint(1, "zone", "{}", ",\"matchLabelKeys\":[\"foo\"]"),
            constraint(1, HOST, "{}", ",\"matchLabelKeys\":[\"bar\"]"))), twoZonesCd(),
        Map.of(),
        List.of(existing("p-a1", "node-a", L_FOO), existing("p-b1", "node-b", L_FOO_BAR),
            existing("p-y1", "node-c", L_FOO), existing("p-y2", "node-c", L_BAR))))
        .containsExactly(want("node-a", 60, "node-b", 20, "node-c", 60,
            "node-d", 100));
  }

  @Test
  void matchLabelKeysAndedWithLabelSelectorWhenLabelSelectorIsNotEmpty() {
    String fooBarBaz = "{\"foo\":\"\",\"bar\":\"\",\"baz\":\"\"}";
    assertThat(scores(pod(fooBarBaz, list(constraint(1, "zone", FOO),
            constraint(1, HOST, BAR, ",\"matchLabelKeys\":[\"baz\"]"))), twoZonesCd(),
        Map.of(),
        List.of(existing("p-a1", "node-a", L_FOO), existing("p-b1", "node-b", fooBarBaz),
            existing("p-c1", "node-c", L_FOO), existing("p-c2", "node-c", L_BAR),
            existing("p-d3", "node-c", "{\"bar\":\"\",\"baz\":\"\"}"))))
        .containsExactly(want("node-a", 60, "node-b", 20, "node-c", 60,
            "node-d", 100));
  }
}
