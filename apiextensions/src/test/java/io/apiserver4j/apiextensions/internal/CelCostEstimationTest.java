/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's static cost estimates of rules on schemas (see cel-cost-estimation-cases.yaml). */
class CelCostEstimationTest {

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = CelCostEstimationTest.class.getResourceAsStream(
        "/io/apiserver4j/apiextensions/cel-cost-estimation-cases.yaml")) {
      MapValue doc = (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return ((ListValue) doc.getOrNull("cases")).items().stream().map(MapValue.class::cast)
          .flatMap(c -> Stream.of(
              Arguments.of(Nested.str(c, "name") + " (calc)", c.getOrNull("calc")),
              Arguments.of(Nested.str(c, "name") + " (set)", c.getOrNull("set"))));
    }
  }

  /** The schema as kube's test compiles it: not a resource root. */
  static SchemaNode notRoot(Value schema) {
    MapValue wrapper = MapValue.ofEntries("type", Value.of("object"), "properties",
        MapValue.ofEntries("s", schema));
    return SchemaNode.parse(wrapper).properties().get("s");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void estimatesKubesMaxCost(String name, MapValue c) {
    SchemaNode s = notRoot(c.getOrNull("schema"));
    assertThat(s.compiledRules()).hasSize(1);
    SchemaNode.CompiledRule rule = s.compiledRules().get(0);
    assertThat(rule.compileError()).isEmpty();
    long cost = ((IntegerValue) c.getOrNull("cost")).value();
    long exceeds = ((IntegerValue) c.getOrNull("exceeds")).value();
    if (cost > 0) {
      assertThat(rule.maxCost()).isEqualTo(cost);
    }
    if (exceeds > 0) {
      assertThat(rule.maxCost()).isGreaterThanOrEqualTo(exceeds);
    }
  }
}
