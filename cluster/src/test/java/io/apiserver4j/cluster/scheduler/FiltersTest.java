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
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The filter decisions of kube-scheduler's plugin tests ({@code filters.yaml} names the files
 * and tests they come from), run through {@link Filters}.
 */
class FiltersTest {
  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = FiltersTest.class.getResourceAsStream("filters.yaml")) {
      List<Value> all = Yaml.readAll(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      List<Arguments> out = new ArrayList<>();
      for (Value doc : all) {
        for (Value c : Nested.list(doc)) {
          out.add(Arguments.of(Nested.str(c, "plugin") + ": " + Nested.str(c, "name"), c));
        }
      }
      return out.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void decidesAsKube(String name, MapValue c) {
    MapValue node = Nested.map(c, "node");
    if (Nested.str(node, "metadata", "name").isEmpty()) {
      node = Nested.set(node, Value.of("node"), "metadata", "name");
    }
    node = Nested.set(node, Json.read("{\"cpu\":\"10m\",\"memory\":\"20\",\"pods\":\"32\","
        + "\"example.com/aaa\":\"5\",\"ephemeral-storage\":\"20\"}"), "status", "allocatable");
    MapValue spec = Nested.map(c, "pod");
    if (c.containsKey("ports")) {
      spec = Nested.set(spec, Json.read("[{\"name\":\"c\",\"ports\":"
          + Json.write(c.getOrNull("ports")) + "}]"), "containers");
    }
    MapValue pod = MapValue.ofEntries("metadata", Json.read("{\"name\":\"p\"}"), "spec", spec);
    NodeInfo info = new NodeInfo(node);
    for (Value used : Nested.list(c, "existing")) {
      info.add((MapValue) Json.read("{\"spec\":{\"containers\":[{\"name\":\"x\",\"resources\":"
          + "{\"requests\":" + Json.write(used) + "}}]}}"));
    }
    if (c.containsKey("existingPorts")) {
      info.add((MapValue) Json.read("{\"spec\":{\"containers\":[{\"name\":\"x\",\"ports\":"
          + Json.write(c.getOrNull("existingPorts")) + "}]}}"));
    }
    Optional<Filters.Rejection> got = switch (Nested.str(c, "plugin")) {
      case "TaintToleration" -> Filters.taintToleration(pod, node);
      case "NodeAffinity" -> Filters.nodeAffinity(pod, node);
      case "NodeResourcesFit" -> Filters.fit(pod, info);
      case "NodePorts" -> Filters.nodePorts(pod, info);
      case "NodeUnschedulable" -> Filters.nodeUnschedulable(pod, node);
      default -> throw new IllegalArgumentException("unknown plugin in " + name);
    };
    if (!c.containsKey("want")) {
      assertThat(got).isEmpty();
      return;
    }
    List<String> reasons = new ArrayList<>();
    for (Value r : Nested.list(c, "want", "reasons")) {
      reasons.add(Nested.str(r));
    }
    assertThat(got).contains(new Filters.Rejection(reasons,
        Nested.bool(c, "want", "unresolvable")));
  }
}
