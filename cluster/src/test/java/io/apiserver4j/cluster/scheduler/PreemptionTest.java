/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The default preemption plugin's choice of Node and victims on the cases of kube's
 * {@code TestSelectBestCandidate} ({@code preemption.yaml}), and its verdicts when no Node
 * helps, through {@link Preemption#evaluate}.
 */
class PreemptionTest {
  private static final Map<String, String[]> REQUESTS = Map.of(
      "small", new String[] {"100m", "100"}, "medium", new String[] {"200m", "200"},
      "large", new String[] {"300m", "300"}, "veryLarge", new String[] {"500m", "500"});

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = PreemptionTest.class.getResourceAsStream("preemption.yaml")) {
      Value doc = Yaml.readAll(new String(in.readAllBytes(), StandardCharsets.UTF_8)).get(0);
      List<Arguments> out = new ArrayList<>();
      for (Value c : Nested.list(doc)) {
        out.add(Arguments.of(Nested.str(c, "name"), c));
      }
      return out.stream();
    }
  }

  /** A Pod as kube's {@code st.MakePod().Name().Node().Priority().Req().StartTime()}. */
  private static MapValue pod(List<Value> p) {
    String[] req = REQUESTS.get(Nested.str(p.get(3)));
    String start = p.size() > 4 ? ",\"status\":{\"startTime\":\"1970-01-01T00:00:0"
        + Nested.integer(p.get(4)) + "Z\"}" : "";
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"" + Nested.str(p.get(0))
        + "\",\"namespace\":\"ns\",\"uid\":\"" + Nested.str(p.get(0)) + "\"},\"spec\":{"
        + "\"nodeName\":\"" + Nested.str(p.get(1)) + "\",\"priority\":"
        + Nested.integer(p.get(2)) + ",\"containers\":[{\"name\":\"c\",\"resources\":"
        + "{\"requests\":{\"cpu\":\"" + req[0] + "\",\"memory\":\"" + req[1] + "\"}}}]}"
        + start + "}");
  }

  private static SchedulingCycle cycle(MapValue pod, List<String> nodeNames,
      List<MapValue> pods) {
    Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    for (String n : nodeNames) {
      nodes.put(n, new NodeInfo((MapValue) Json.read("{\"metadata\":{\"name\":\"" + n
          + "\"},\"spec\":{},\"status\":{\"allocatable\":{\"cpu\":\"500m\",\"memory\":\"500\","
          + "\"pods\":\"32\"}}}")));
    }
    for (MapValue p : pods) {
      nodes.get(Nested.str(p, "spec", "nodeName")).add(p);
    }
    return new SchedulingCycle(pod, List.copyOf(nodes.values()), ns -> Map.of(), Map.of());
  }

  private static Map<String, Filters.Rejection> rejections(SchedulingCycle cycle) {
    Map<String, Filters.Rejection> rejected = new LinkedHashMap<>();
    for (NodeInfo n : cycle.nodes()) {
      cycle.filter(n).ifPresent(r -> rejected.put(n.name, r));
    }
    return rejected;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void picksTheNodeKubePicks(String name, MapValue c) {
    List<MapValue> pods = new ArrayList<>();
    for (Value p : Nested.list(c, "pods")) {
      pods.add(pod(Nested.list(p)));
    }
    List<String> nodes = Nested.list(c, "nodes").stream().map(Nested::str).toList();
    SchedulingCycle cycle = cycle(pod(Nested.list(c, "pod")), nodes, pods);
    Preemption.Result result = Preemption.evaluate(cycle, rejections(cycle), List.of());
    List<String> expected = Nested.list(c, "expected").stream().map(Nested::str).toList();
    assertThat(result.candidate()).isPresent();
    assertThat(result.candidate().get().node()).isEqualTo(expected.get(0));
    assertThat(result.message()).isEmpty();
  }

  @Test
  void keepsTheVictimsThatFitBackMostImportantFirst() {
    // node1 holds 100m+200m+100m of 500m; the 300m Pod needs 200m more: the low-priority
    // 200m Pod goes, the mid-priority ones are reprieved
    List<MapValue> pods = List.of(
        pod(Nested.list(Json.read("[\"a\",\"node1\",100,\"small\",0]"))),
        pod(Nested.list(Json.read("[\"b\",\"node1\",0,\"medium\",0]"))),
        pod(Nested.list(Json.read("[\"c\",\"node1\",100,\"small\",0]"))));
    SchedulingCycle cycle = cycle(pod(Nested.list(Json.read("[\"p\",\"\",1000,\"large\"]"))),
        List.of("node1"), pods);
    Preemption.Result result = Preemption.evaluate(cycle, rejections(cycle), List.of());
    assertThat(result.candidate().orElseThrow().victims())
        .extracting(p -> Nested.str(p, "metadata", "name")).containsExactly("b");
  }

  @Test
  void aBudgetWithoutDisruptionsLeftMakesItsPodsVictimsLast() {
    // either Pod frees enough; the one its PodDisruptionBudget protects is reprieved first
    List<MapValue> pods = new ArrayList<>();
    for (String json : List.of("[\"protected\",\"node1\",0,\"large\",0]",
        "[\"free\",\"node1\",0,\"medium\",1]")) {
      pods.add(pod(Nested.list(Json.read(json))));
    }
    pods.set(0, Nested.set(pods.get(0), Json.read("{\"app\":\"db\"}"), "metadata", "labels"));
    MapValue pdb = (MapValue) Json.read("{\"metadata\":{\"name\":\"db\",\"namespace\":\"ns\"},"
        + "\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"db\"}}},"
        + "\"status\":{\"disruptionsAllowed\":0}}");
    SchedulingCycle cycle = cycle(pod(Nested.list(Json.read("[\"p\",\"\",1000,\"medium\"]"))),
        List.of("node1"), pods);
    Preemption.Result result = Preemption.evaluate(cycle, rejections(cycle), List.of(pdb));
    assertThat(result.candidate().orElseThrow().victims())
        .extracting(p -> Nested.str(p, "metadata", "name")).containsExactly("free");
    assertThat(result.candidate().get().pdbViolations()).isZero();
  }

  @Test
  void noCandidateGivesEachNodesVerdict() {
    // node1: equal priority only; node2: even without its lower Pod the request does not fit
    List<MapValue> pods = List.of(
        pod(Nested.list(Json.read("[\"a\",\"node1\",1000,\"veryLarge\",0]"))),
        pod(Nested.list(Json.read("[\"b\",\"node2\",0,\"small\",0]"))),
        pod(Nested.list(Json.read("[\"c\",\"node2\",1000,\"large\",0]"))));
    SchedulingCycle cycle = cycle(pod(Nested.list(Json.read("[\"p\",\"\",1000,\"large\"]"))),
        List.of("node1", "node2"), pods);
    Map<String, Filters.Rejection> rejected = rejections(cycle);
    Preemption.Result result = Preemption.evaluate(cycle, rejected, List.of());
    assertThat(result.candidate()).isEmpty();
    assertThat(result.message()).isEqualTo("no new claims to deallocate, preemption: 0/2"
        + " nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 No preemption"
        + " victims found for incoming pod.");
    assertThat(Optional.of(rejected.size())).contains(2);
  }
}
