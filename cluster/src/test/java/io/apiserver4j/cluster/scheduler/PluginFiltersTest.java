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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The decisions of kube-scheduler's cluster-wide filter plugins (InterPodAffinity,
 * PodTopologySpread) on the cases of their own tests ({@code interpodaffinity.yaml},
 * {@code podtopologyspread.yaml} name the files and tests), run through each plugin alone as
 * kube's tests do.
 */
class PluginFiltersTest {
  /** The namespaces of kube's interpodaffinity tests and their labels. */
  private static final Map<String, Map<String, String>> NAMESPACES = Map.of(
      "subteam1.team1", Map.of("team", "team1"),
      "subteam2.team1", Map.of("team", "team1"),
      "subteam1.team2", Map.of("team", "team2"));

  static Stream<Arguments> cases() throws IOException {
    List<Arguments> out = new ArrayList<>();
    for (String plugin : List.of("InterPodAffinity", "PodTopologySpread")) {
      try (InputStream in = PluginFiltersTest.class.getResourceAsStream(
          plugin.toLowerCase() + ".yaml")) {
        Value doc = Yaml.readAll(new String(in.readAllBytes(), StandardCharsets.UTF_8)).get(0);
        for (Value c : Nested.list(doc)) {
          out.add(Arguments.of(plugin + ": " + Nested.str(c, "name"), plugin, c));
        }
      }
    }
    return out.stream();
  }

  private static MapValue pod(Value spec) {
    MapValue pod = spec instanceof MapValue m ? m : MapValue.ofEntries();
    if (Nested.str(pod, "metadata", "name").isEmpty()) {
      pod = Nested.set(pod, Value.of("p"), "metadata", "name");
    }
    return pod;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decidesAsKube(String name, String plugin, MapValue c) {
    MapValue pod = pod(c.getOrNull("pod"));
    Map<String, NodeInfo> nodes = new LinkedHashMap<>();
    for (Value n : Nested.list(c, "nodes")) {
      MapValue node = (MapValue) Json.read("{\"metadata\":{\"name\":" + Json.write(
          Nested.getOrNull(n, "name")) + "},\"spec\":{}}");
      if (Nested.has(n, "labels")) {
        node = Nested.set(node, Nested.getOrNull(n, "labels"), "metadata", "labels");
      }
      if (Nested.has(n, "taints")) {
        node = Nested.set(node, Nested.getOrNull(n, "taints"), "spec", "taints");
      }
      nodes.put(Nested.str(n, "name"), new NodeInfo(node));
    }
    for (Value e : Nested.list(c, "existing")) {
      MapValue existing = pod(e);
      NodeInfo on = nodes.get(Nested.str(existing, "spec", "nodeName"));
      if (on != null) {
        on.add(existing);
      }
    }
    List<NodeInfo> all = List.copyOf(nodes.values());
    InterPodAffinity affinity = new InterPodAffinity(pod, all,
        ns -> NAMESPACES.getOrDefault(ns, Map.of()));
    PodTopologySpread spread = new PodTopologySpread(pod, all);
    for (NodeInfo n : all) {
      Optional<Filters.Rejection> got = plugin.equals("InterPodAffinity") ? affinity.filter(n)
          : spread.filter(n);
      Value want = Nested.getOrNull(c, "want", n.name);
      if (want == null) {
        assertThat(got).as(n.name).isEmpty();
      } else {
        assertThat(got).as(n.name).contains(new Filters.Rejection(
            List.of(Nested.str(want, "reason")), Nested.bool(want, "unresolvable")));
      }
    }
  }
}
