/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestConvertDesiredReplicasWithRules} and {@code TestNormalizeDesiredReplicas}
 * (pkg/controller/podautoscaler/horizontal_test.go): the legacy limits of an autoscaler without
 * {@code behavior} and the 5-minute downscale stabilization of its recommendation log. Expected
 * values are kube's.
 */
class NormalizerTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

  static Stream<Arguments> conversions() {
    return Stream.of(
        Arguments.of(5, 7, 3, 8, 7, "DesiredWithinRange"),
        Arguments.of(3, 1, 2, 8, 2, "TooFewReplicas"),
        Arguments.of(1, 0, 0, 10, 0, "DesiredWithinRange"),
        Arguments.of(20, 1000, 1, 10, 10, "TooManyReplicas"),
        Arguments.of(3, 1000, 1, 2000, Normalizer.calculateScaleUpLimit(3), "ScaleUpLimit"));
  }

  @ParameterizedTest
  @MethodSource("conversions")
  void convertDesiredReplicasWithRulesAsKube(int current, int desired, int min, int max,
      int expected, String condition) {
    Normalizer.Limited l = Normalizer.convertWithRules(current, desired, min, max);

    assertThat(l.replicas()).isEqualTo(expected);
    assertThat(l.reason()).isEqualTo(condition);
  }

  /** A recommendation of the log: replicas, minutes before now. */
  record Rec(int replicas, int minutesAgo) {}

  static Stream<Arguments> stabilizations() {
    return Stream.of(
        Arguments.of("empty log", List.of(), 5, 5, 1),
        Arguments.of("stabilize", List.of(new Rec(4, 2), new Rec(5, 1)), 3, 5, 3),
        Arguments.of("no stabilize", List.of(new Rec(1, 2), new Rec(2, 1)), 3, 3, 3),
        Arguments.of("no stabilize - old recommendations",
            List.of(new Rec(10, 10), new Rec(9, 9)), 3, 3, 2),
        Arguments.of("stabilize - old recommendations",
            List.of(new Rec(10, 10), new Rec(4, 1), new Rec(5, 2), new Rec(9, 9)), 3, 5, 4));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stabilizations")
  void normalizeDesiredReplicasAsKube(String name, List<Rec> log, int prenormalized,
      int expected, int expectedLogLength) {
    Normalizer n = new Normalizer(Duration.ofMinutes(5));
    for (Rec r : log) {
      n.recordRecommendation("", r.replicas(), NOW.minus(Duration.ofMinutes(r.minutesAgo())));
    }

    assertThat(n.stabilizeRecommendation("", prenormalized, NOW)).isEqualTo(expected);
    assertThat(n.recommendationCount("")).isEqualTo(expectedLogLength);
  }
}
