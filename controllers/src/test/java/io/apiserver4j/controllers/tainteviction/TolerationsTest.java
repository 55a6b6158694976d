/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.tainteviction;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestGetMinTolerationTime} and {@code TestFilterNoExecuteTaints}
 * (pkg/controller/tainteviction/taint_eviction_test.go) and the toleration matching of
 * {@code Toleration.ToleratesTaint}.
 */
class TolerationsTest {
  private static List<Value> list(String json) {
    return ((io.apiserver4j.core.ListValue) Json.read(json)).items();
  }

  static Stream<Arguments> minTolerationCases() {
    return Stream.of(
        Arguments.of("[]", 0L),
        Arguments.of("[{}]", Tolerations.FOREVER),
        Arguments.of("[{\"tolerationSeconds\":1},{\"tolerationSeconds\":2}]", 1L),
        Arguments.of("[{\"tolerationSeconds\":1},{}]", 1L),
        Arguments.of("[{},{\"tolerationSeconds\":1}]", 1L),
        // 0 or less: evicted at once
        Arguments.of("[{\"tolerationSeconds\":5},{\"tolerationSeconds\":-3}]", 0L));
  }

  @ParameterizedTest
  @MethodSource("minTolerationCases")
  void minTolerationTime(String tolerations, long expected) {
    assertThat(Tolerations.minTolerationSeconds(list(tolerations))).isEqualTo(expected);
  }

  @Test
  void onlyNoExecuteTaintsCount() {
    MapValue node = (MapValue) Json.read("{\"spec\":{\"taints\":[{\"key\":\"one\",\"value\":"
        + "\"one\",\"effect\":\"NoExecute\"},{\"key\":\"two\",\"value\":\"two\",\"effect\":"
        + "\"NoSchedule\"}]}}");
    assertThat(TaintEvictionController.noExecuteTaints(node)).containsExactly(
        Json.read("{\"key\":\"one\",\"value\":\"one\",\"effect\":\"NoExecute\"}"));
  }

  static Stream<Arguments> toleratesCases() {
    String taint = "{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoExecute\"}";
    return Stream.of(
        Arguments.of("{\"key\":\"k\",\"value\":\"v\",\"effect\":\"NoExecute\"}", taint, true),
        Arguments.of("{\"key\":\"k\",\"operator\":\"Equal\",\"value\":\"v\"}", taint, true),
        Arguments.of("{\"key\":\"k\",\"value\":\"w\",\"effect\":\"NoExecute\"}", taint, false),
        Arguments.of("{\"key\":\"k\",\"operator\":\"Exists\"}", taint, true),
        Arguments.of("{\"operator\":\"Exists\"}", taint, true),
        Arguments.of("{\"operator\":\"Exists\",\"effect\":\"NoSchedule\"}", taint, false),
        Arguments.of("{\"key\":\"other\",\"operator\":\"Exists\"}", taint, false),
        // the comparison operators are behind an alpha gate, off by default
        Arguments.of("{\"key\":\"k\",\"operator\":\"Gt\",\"value\":\"1\"}", taint, false));
  }

  @ParameterizedTest
  @MethodSource("toleratesCases")
  void toleratesTaint(String toleration, String taint, boolean expected) {
    assertThat(Tolerations.tolerates(Json.read(toleration), Json.read(taint)))
        .isEqualTo(expected);
  }

  @Test
  void matchingTolerationsNeedEveryTaintTolerated() {
    List<Value> taints = list("[{\"key\":\"a\",\"effect\":\"NoExecute\"},"
        + "{\"key\":\"b\",\"effect\":\"NoExecute\"}]");
    assertThat(Tolerations.matching(taints, list("[{\"key\":\"a\",\"operator\":\"Exists\"}]")))
        .isEmpty();
    assertThat(Tolerations.matching(taints, list("[{\"key\":\"b\",\"operator\":\"Exists\","
        + "\"tolerationSeconds\":3},{\"operator\":\"Exists\"}]")).orElseThrow())
        .containsExactly(Json.read("{\"operator\":\"Exists\"}"),
            Json.read("{\"key\":\"b\",\"operator\":\"Exists\",\"tolerationSeconds\":3}"));
    assertThat(Tolerations.matching(List.of(), List.of()).orElseThrow()).isEmpty();
    assertThat(Tolerations.matching(taints, List.of())).isEmpty();
  }
}
