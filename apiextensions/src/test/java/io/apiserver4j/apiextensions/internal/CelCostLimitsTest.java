/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Yaml;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's TestPerCRDEstimatedCost and TestCostInfo (apiextensions-apiserver
 * pkg/apis/apiextensions/validation/validation_test.go): the per-CRD total and its most expensive
 * expressions, and the cardinality of nested schemas. Where kube saturates at math.MaxUint64 we
 * saturate at Long.MAX_VALUE.
 */
class CelCostLimitsTest {

  static Stream<Arguments> totals() {
    long half = Long.MAX_VALUE / 2;
    return Stream.of(
        Arguments.of("no costs", List.of(), List.of(), 0L),
        Arguments.of("one cost", List.of(1000000L), List.of(1000000L), 1000000L),
        Arguments.of("one cost, ignored", List.of(900000L), List.of(), 900000L),
        Arguments.of("2 costs", List.of(5000000L, 25000000L), List.of(25000000L, 5000000L),
            30000000L),
        Arguments.of("3 costs, one ignored", List.of(5000000L, 25000000L, 900000L),
            List.of(25000000L, 5000000L), 30900000L),
        Arguments.of("4 costs", List.of(16000000L, 50000000L, 34000000L, 50000000L),
            List.of(50000000L, 50000000L, 34000000L, 16000000L), 150000000L),
        Arguments.of("5 costs, one trimmed, one ignored",
            List.of(16000000L, 50000000L, 900000L, 34000000L, 50000000L, 50000001L),
            List.of(50000001L, 50000000L, 50000000L, 34000000L), 200900001L),
        Arguments.of("costs do not overflow", List.of(half, half, 1L, 10L, 100L, 1000L),
            List.of(half, half), Long.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("totals")
  void totalCostKeepsTheMostExpensive(String name, List<Long> costs, List<Long> expensive,
      long total) {
    CelCostLimits.TotalCost t = new CelCostLimits.TotalCost();
    costs.forEach(c -> t.observe("x", c));
    assertThat(t.mostExpensive().stream().map(CelCostLimits.RuleCost::cost).toList())
        .isEqualTo(expensive);
    assertThat(t.total()).isEqualTo(total);
  }

  private static SchemaNode schema(String yaml) {
    return CelCostEstimationTest.notRoot(Yaml.read(yaml));
  }

  private static final String OBJECT = "{type: object, properties: {a: {type: string}}}";
  private static final String ARRAY = "{type: array, items: {type: string}}";
  private static final String MAP = "{type: object, additionalProperties: {type: string}}";

  static Stream<Arguments> cardinalities() {
    long unbounded = CelCostLimits.UNBOUNDED;
    return Stream.of(
        Arguments.of("object", List.of(OBJECT), 1L),
        Arguments.of("array", List.of(withMax(ARRAY, "maxItems", 5)), 5L),
        Arguments.of("unbounded array", List.of(ARRAY), unbounded),
        Arguments.of("map", List.of(withMax(MAP, "maxProperties", 10)), 10L),
        Arguments.of("unbounded map", List.of(MAP), unbounded),
        Arguments.of("array inside map",
            List.of(withMax(MAP, "maxProperties", 5), withMax(ARRAY, "maxItems", 5)), 25L),
        Arguments.of("unbounded array inside bounded map",
            List.of(withMax(MAP, "maxProperties", 5), ARRAY), unbounded),
        Arguments.of("object inside array", List.of(withMax(ARRAY, "maxItems", 3), OBJECT), 3L),
        Arguments.of("map inside object inside array", List.of(withMax(ARRAY, "maxItems", 2),
            OBJECT, withMax(MAP, "maxProperties", 4)), 8L),
        Arguments.of("integer overflow bounds check", List.of(
            withMax(ARRAY, "maxItems", Long.MAX_VALUE), withMax(ARRAY, "maxItems", 100)),
            Long.MAX_VALUE));
  }

  private static String withMax(String schema, String key, long max) {
    return schema.substring(0, schema.length() - 1) + ", " + key + ": " + max + "}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cardinalities")
  void cardinalityMultipliesTheBoundsOfAncestors(String name, List<String> chain,
      long expected) {
    // as kube's test: a root context for the first schema, a child context per further schema
    // and for a leaf string
    long cardinality = 1;
    for (String s : chain) {
      cardinality = CelCostLimits.childCardinality(schema(s), cardinality);
    }
    assertThat(cardinality).isEqualTo(expected);
  }

  @Test
  void costErrorMessagesUseKubesFactorFormats() {
    assertThat(CelCostLimits.costErrorMessage("estimated rule cost", 12_000_000, 10_000_000))
        .isEqualTo("estimated rule cost exceeds budget by factor of 1.200000x (try simplifying"
            + " the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps,"
            + " and strings are declared)");
    assertThat(CelCostLimits.costErrorMessage("c", 25_000_000, 10_000_000))
        .startsWith("c exceeds budget by factor of 2.5x (");
    assertThat(CelCostLimits.costErrorMessage("c", 1_000_000_001, 10_000_000))
        .startsWith("c exceeds budget by factor of more than 100x (");
  }

  private static io.apiserver4j.core.MapValue crd(String description) {
    return (io.apiserver4j.core.MapValue) Yaml.read("""
        spec:
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                description: %s
                properties:
                  list:
                    type: array
                    maxItems: 10000
                    items:
                      type: string
                      maxLength: 5000
                      x-kubernetes-validations: [{rule: "self.contains('keyword')"}]
        """.formatted(description));
  }

  @Test
  void unchangedVersionsAreNotHeldToThePerExpressionLimit() {
    // contains on at most 20000 bytes costs 2001, times 10000 items: 20,010,000 (2.0x)
    String tooExpensive = "spec.validation.openAPIV3Schema.properties[list].items"
        + ".x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by"
        + " factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and"
        + " maxLength where arrays, maps, and strings are declared)";
    assertThat(io.apiserver4j.apiextensions.CrdValidator.validateDefinition(crd("a")))
        .extracting(Object::toString).containsExactly(tooExpensive);
    assertThat(io.apiserver4j.apiextensions.CrdValidator.validateDefinitionUpdate(crd("a"),
        crd("a"))).isEmpty();
    assertThat(io.apiserver4j.apiextensions.CrdValidator.validateDefinitionUpdate(crd("b"),
        crd("a"))).extracting(Object::toString).containsExactly(tooExpensive);
  }
}
