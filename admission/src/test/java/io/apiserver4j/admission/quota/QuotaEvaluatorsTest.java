/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The evaluator expectations of kube's tests, as cases in {@code quota/evaluators.yaml}. */
class QuotaEvaluatorsTest {
  private static final Clock NOW = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"),
      ZoneOffset.UTC);

  static Stream<Arguments> cases() throws IOException {
    String text;
    try (InputStream in = QuotaEvaluatorsTest.class.getResourceAsStream(
        "/quota/evaluators.yaml")) {
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Arguments> out = new ArrayList<>();
    for (Value c : Nested.list(Yaml.read(text), "cases")) {
      out.add(Arguments.of(Nested.str(c, "name"), c));
    }
    return out.stream();
  }

  private static GroupResource resource(String name) {
    int dot = name.indexOf('.');
    return dot < 0 ? new GroupResource("", name)
        : new GroupResource(name.substring(dot + 1), name.substring(0, dot));
  }

  private static List<String> strings(Value list) {
    List<String> out = new ArrayList<>();
    if (list instanceof ListValue l) {
      l.items().forEach(v -> out.add(Nested.str(v)));
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluator(String name, MapValue c) {
    QuotaEvaluators evaluators = QuotaEvaluators.core(NOW);
    QuotaEvaluator e = evaluators.getOrCount(resource(Nested.str(c, "resource")));
    MapValue object = Nested.map(c, "object");
    switch (Nested.str(c, "check")) {
      case "constraints" -> {
        Optional<String> err = e.constraints(strings(c.getOrNull("required")), object);
        assertThat(err).hasValue(Nested.str(c, "error"));
      }
      case "usage" -> assertUsage(e.usage(object), Nested.map(c, "usage"));
      case "scopes" -> {
        List<ScopeRequirement> selectors = ScopeRequirement.ofQuota(MapValue.ofEntries("spec",
            MapValue.ofEntries("scopeSelector", MapValue.ofEntries("matchExpressions",
                c.getOrNull("selectors")))));
        assertThat(e.matchingScopes(object, selectors).stream()
            .map(ScopeRequirement::scopeName).toList())
            .isEqualTo(strings(c.getOrNull("matched")));
      }
      case "stats" -> {
        MapValue.Builder hard = MapValue.builder();
        strings(c.getOrNull("hard")).forEach(h -> hard.put(h, Value.of("100")));
        MapValue spec = MapValue.ofEntries("hard", hard.build());
        if (c.containsKey("scopes")) {
          spec = spec.with("scopes", c.getOrNull("scopes"));
        }
        if (c.containsKey("scopeSelector")) {
          spec = spec.with("scopeSelector", c.getOrNull("scopeSelector"));
        }
        MapValue quota = MapValue.ofEntries("metadata", MapValue.ofEntries("name",
            Value.of("q"), "namespace", Value.of("ns")), "spec", spec);
        List<MapValue> items = new ArrayList<>();
        Nested.list(c, "objects").forEach(o -> items.add((MapValue) o));
        QuotaUsage usage = QuotaUsage.recalculate(quota, evaluators,
            (gr, ns) -> Optional.of(gr.equals(e.groupResource()) ? items : List.of()));
        assertUsage(usage.used(), Nested.map(c, "usage"));
        assertThat(usage.dirty()).isTrue();
      }
      default -> throw new IllegalArgumentException("unknown check in case " + name);
    }
  }

  private static void assertUsage(Map<String, Quantity> actual, MapValue expected) {
    Map<String, Quantity> want = ResourceLists.fromValue(expected);
    assertThat(ResourceLists.equal(actual, want))
        .as("usage %s, expected %s", ResourceLists.prettyPrint(actual),
            ResourceLists.prettyPrint(want))
        .isTrue();
  }

  @Test
  void sumsKeepTheFirstFormatAndPrintCanonically() {
    Map<String, Quantity> a = ResourceLists.fromValue(Yaml.read("{memory: 1Gi, cpu: 500m}"));
    Map<String, Quantity> b = ResourceLists.fromValue(Yaml.read("{memory: 1Gi, cpu: 500m}"));
    assertThat(ResourceLists.toValue(ResourceLists.add(a, b)))
        .isEqualTo(Yaml.read("{cpu: \"1\", memory: 2Gi}"));
    assertThat(ResourceLists.prettyPrint(ResourceLists.add(
        Map.of("pods", ResourceLists.zero()), a)))
        .isEqualTo("cpu=500m,memory=1Gi,pods=0");
  }

  @Test
  void replenishesWhenAPodBecomesTerminal() {
    QuotaEvaluators evaluators = QuotaEvaluators.core(NOW);
    MapValue running = (MapValue) Yaml.read("{status: {phase: Running}}");
    MapValue done = (MapValue) Yaml.read("{status: {phase: Succeeded}}");
    GroupResource pods = new GroupResource("", "pods");
    assertThat(evaluators.requiresReplenish(pods, running, done)).isTrue();
    assertThat(evaluators.requiresReplenish(pods, done, running)).isFalse();
    GroupResource services = new GroupResource("", "services");
    assertThat(evaluators.requiresReplenish(services,
        (MapValue) Yaml.read("{spec: {type: NodePort}}"),
        (MapValue) Yaml.read("{spec: {type: ClusterIP}}"))).isTrue();
  }
}
