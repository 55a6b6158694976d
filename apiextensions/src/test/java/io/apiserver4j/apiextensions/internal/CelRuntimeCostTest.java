/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's runtime cost accounting of CRD rules (apiextensions-apiserver v0.36.0
 * pkg/apiserver/schema/cel/validation_test.go: TestMessageExpression, TestCELValidationLimit and
 * the "cost for extended lib calculated correctly" cases of TestValidationExpressions), with
 * costs counted as kube counts them.
 */
class CelRuntimeCostTest {
  private static final long BUDGET = CelCostLimits.RUNTIME_CEL_COST_BUDGET;
  private static final long PER_CALL = CelCostLimits.PER_CALL_LIMIT;

  private static SchemaNode schema(String yaml) {
    return CelCostEstimationTest.notRoot(Yaml.read(yaml));
  }

  private static long validate(SchemaNode s, Value obj, List<FieldError> errs, long budget,
      long perCallLimit) {
    return CelValidation.validate(s, obj, null, "root", errs, new ArrayList<>(), budget,
        perCallLimit, CelValidation.CostTracking.ALWAYS);
  }

  static Stream<Arguments> messageExpressions() {
    return Stream.of(
        // name, message, messageExpression, budget, per-call limit, error, remaining (0: any)
        Arguments.of("no cost error expected", "", "\"static string\"", 300L, PER_CALL,
            "static string", 300L),
        Arguments.of("messageExpression takes precedence over message", "invisible",
            "\"this is messageExpression\"", BUDGET, PER_CALL, "this is messageExpression", 0L),
        Arguments.of("default rule message used if messageExpression does not eval to string",
            "", "true", BUDGET, PER_CALL, "failed rule", BUDGET),
        Arguments.of("limit exceeded", "", "\"string 1\" + \"string 2\" + \"string 3\"", 1L,
            PER_CALL, "messageExpression evaluation failed due to running out of cost budget",
            -1L),
        Arguments.of("messageExpression budget (str concat)", "", "\"str1 \" + self.str", 50L,
            PER_CALL, "str1 a string", 46L),
        Arguments.of("runtime cost preserved if messageExpression fails during evaluation",
            "message not messageExpression", "\"str1 \" + [\"a\", \"b\", \"c\", \"d\"][4]", 50L,
            PER_CALL, "message not messageExpression", 47L),
        Arguments.of("runtime cost preserved if messageExpression fails during evaluation (no"
            + " message set)", "", "\"str1 \" + [\"a\", \"b\", \"c\", \"d\"][4]", 50L, PER_CALL,
            "failed rule", 47L),
        Arguments.of("per-call limit exceeded during messageExpression execution", "",
            "\"string 1\" + \"string 2\" + \"string 3\"", BUDGET, 1L,
            "call cost exceeds limit for messageExpression", -1L),
        Arguments.of("messageExpression is not allowed to generate a string with newlines",
            "message not messageExpression", "\"str with \\na newline\"", BUDGET, PER_CALL,
            "message not messageExpression", 0L),
        Arguments.of("messageExpression is not allowed to generate messages >5000 characters",
            "message not messageExpression", "\"" + "a".repeat(5121) + "\"", BUDGET, PER_CALL,
            "message not messageExpression", 0L),
        Arguments.of("messageExpression is not allowed to generate an empty string",
            "message not messageExpression", "string(\"\")", BUDGET, PER_CALL,
            "message not messageExpression", 0L),
        Arguments.of("messageExpression is not allowed to generate a string with only spaces",
            "message not messageExpression", "string(\"     \")", BUDGET, PER_CALL,
            "message not messageExpression", 0L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("messageExpressions")
  void messageExpressionsSpendTheBudget(String name, String message, String messageExpression,
      long budget, long perCallLimit, String error, long remaining) {
    MapValue rule = MapValue.ofEntries("rule", Value.of("false"), "messageExpression",
        Value.of(messageExpression));
    if (!message.isEmpty()) {
      rule = MapValue.ofEntries("rule", Value.of("false"), "message", Value.of(message),
          "messageExpression", Value.of(messageExpression));
    }
    SchemaNode s = CelCostEstimationTest.notRoot(MapValue.ofEntries("type", Value.of("object"),
        "properties", Yaml.read("{str: {type: string}}"), "x-kubernetes-validations",
        io.apiserver4j.core.ListValue.of(List.of(rule))));
    List<FieldError> errs = new ArrayList<>();
    long left = validate(s, Yaml.read("{str: a string}"), errs, budget, perCallLimit);
    assertThat(errs).hasSize(1);
    assertThat(errs.get(0).toString()).contains(error);
    if (remaining != 0) {
      assertThat(left).isEqualTo(remaining);
    }
  }

  static Stream<Arguments> libraryCosts() {
    return Stream.of(
        Arguments.of("[1,2,3,4].isSorted()", 4L),
        Arguments.of("url('https:://kubernetes.io/').getHostname() != 'test'", 4L),
        Arguments.of("size('abc 123 def 123'.split(' ')) > 0", 5L),
        Arguments.of("size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0",
            7L));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("libraryCosts")
  void extendedLibraryCostsAsKube(String rule, long cost) {
    SchemaNode s = schema("{type: object, properties: {val1: {type: string}, val2: {type: string}},"
        + " x-kubernetes-validations: [{rule: \"" + rule.replace("\"", "\\\"") + "\"}]}");
    List<FieldError> errs = new ArrayList<>();
    long left = validate(s, Yaml.read("{val1: '20', val2: 200M}"), errs, BUDGET, PER_CALL);
    assertThat(errs).isEmpty();
    assertThat(BUDGET - left).isEqualTo(cost);
  }

  @Test
  void anEmptyBudgetStopsValidationOnce() {
    SchemaNode s = schema("{type: object, properties: {val1: {type: integer}},"
        + " x-kubernetes-validations: [{rule: 'self.val1 > 0'}]}");
    List<FieldError> errs = new ArrayList<>();
    long left = validate(s, Yaml.read("{val1: 9223372036854775807}"), errs, 0, PER_CALL);
    assertThat(errs).extracting(FieldError::toString).containsExactly("root: Invalid value:"
        + " \"object\": validation failed due to running out of cost budget, no further"
        + " validation rules will be run");
    assertThat(left).isNegative();
  }

  @Test
  void aRuleOverThePerCallLimitStopsValidation() {
    SchemaNode s = schema("{type: object, properties: {val1: {type: integer}},"
        + " x-kubernetes-validations: [{rule: 'self.val1 > 0'}, {rule: 'self.val1 < 0'}]}");
    List<FieldError> errs = new ArrayList<>();
    long left = validate(s, Yaml.read("{val1: 9223372036854775807}"), errs, BUDGET, 0);
    assertThat(errs).extracting(FieldError::toString).containsExactly("root: Invalid value:"
        + " \"object\": 'operation cancelled: actual cost limit exceeded': no further validation"
        + " rules will be run due to call cost exceeds limit for rule: self.val1 > 0");
    assertThat(left).isNegative();
  }

  @Test
  void aRuleThatCannotReachTheLimitsRunsUntracked() {
    // rules whose estimates stay within the limits are not counted: the budget stays whole
    SchemaNode s = schema("{type: object, properties: {val1: {type: integer}},"
        + " x-kubernetes-validations: [{rule: 'self.val1 > 0'}]}");
    assertThat(s.costTracked()).isFalse();
    List<FieldError> errs = new ArrayList<>();
    long left = CelValidation.validate(s, Yaml.read("{val1: 1}"), null, "root", errs,
        new ArrayList<>(), BUDGET);
    assertThat(errs).isEmpty();
    assertThat(left).isEqualTo(BUDGET);
  }

  @Test
  void expensiveRulesOnALargeListRunOutOfBudget() {
    // contains of 1000 characters in 10000 costs ceil(1000)*ceil(100) = 100,000 plus 1 for self:
    // the 100th item exceeds the 10,000,000 budget at run time, as kube counts it.
    SchemaNode s = schema("{type: array, maxItems: 100, items: {type: string, maxLength: 10000,"
        + " x-kubernetes-validations: [{rule: \"self.contains('" + "a".repeat(1000) + "')\"}]}}");
    assertThat(s.costTracked()).isTrue();
    StringBuilder items = new StringBuilder("[");
    for (int i = 0; i < 100; i++) {
      items.append(i == 0 ? "" : ",").append("a".repeat(10000));
    }
    List<FieldError> errs = new ArrayList<>();
    long left = CelValidation.validate(s, Yaml.read(items.append("]").toString()), null, "root",
        errs, new ArrayList<>(), BUDGET);
    assertThat(left).isNegative();
    assertThat(errs).extracting(FieldError::toString).containsExactly("root[99]: Invalid value:"
        + " \"string\": validation failed due to running out of cost budget, no further"
        + " validation rules will be run");
  }
}
