/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link CelProgram#estimatedCost(Set, long)}: with every string, list and map of the bound
 * variables at most {@code extent} long, the estimate's max covers the runtime cost counted on
 * such values — the soundness the admission policies rely on to skip counting costs.
 */
class CelBoundedEstimateTest {
  private static final String OBJECT = """
      metadata:
        name: bench-cm
        labels: {app: bench, tier: web, a-much-longer-label-key: v}
        annotations: {note: "some text with spaces in it"}
      data: {a: "1", b: "22", c: "333"}
      spec:
        items: [1, 2, 3, 4, 5, 6, 7]
        words: [alpha, beta, gamma, delta]
        nested: [[1, 2], [3, 4, 5], []]
      """;

  static List<Arguments> expressions() {
    return List.of(
        Arguments.of("object.metadata.name.startsWith('bench')"),
        Arguments.of("has(object.data) && size(object.data) < 100"),
        Arguments.of("!has(object.metadata.labels) || object.metadata.labels.all(k, k.size() < 64)"),
        Arguments.of("object.metadata.labels.all(k, object.metadata.labels[k].size() < 64)"),
        Arguments.of("object.spec.items.all(i, object.spec.items.exists(j, j >= i))"),
        Arguments.of("object.spec.words.map(w, w + w).all(w, w.size() > 1)"),
        Arguments.of("object.spec.words.filter(w, w.contains('a')).size() >= 0"),
        Arguments.of("object.spec.nested.all(l, l.all(x, x > 0))"),
        Arguments.of("object.metadata.annotations.note.split(' ').size() > 1"),
        Arguments.of("object.metadata.annotations.note.matches('^[a-z ]+$')"),
        Arguments.of("object.data.exists(k, object.data[k] == '22')"),
        Arguments.of("object.spec.words.join(',').size() > 0"),
        Arguments.of("object.metadata.name + object.metadata.name == 'x'"),
        Arguments.of("object.spec.items.sum() > 0"),
        Arguments.of("sets.contains(object.spec.items, [1, 2])"));
  }

  @ParameterizedTest
  @MethodSource("expressions")
  void boundedEstimateCoversTheCountedCost(String expression) {
    Value object = Yaml.read(OBJECT);
    CelProgram p = CelProgram.compile(expression, List.of("object"));
    long cost = p.evaluate(Map.of("object", object), Map.of(), Long.MAX_VALUE).cost();
    // the longest string, list or map in OBJECT: "some text with spaces in it" (27 chars)
    CelCostEstimate bounded = p.estimatedCost(Set.of("object"), 27);
    assertThat(bounded.max()).as(expression).isGreaterThanOrEqualTo(cost);
  }

  @Test
  void unboundedVariablesKeepTheirEstimates() {
    CelProgram p = CelProgram.compile("object.metadata.labels.all(k, k.size() < 64)",
        List.of("object"));
    assertThat(p.estimatedCost(Set.of(), 10)).isEqualTo(p.estimatedCost());
    assertThat(p.estimatedCost(Set.of("object"), 10).max())
        .isLessThan(p.estimatedCost().max());
  }
}
