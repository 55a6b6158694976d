/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.MetricException;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.Tolerances;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.UsageResult;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code Pods}, {@code Object} and {@code External} metric cases of kube's
 * {@code replica_calculator_test.go} ({@code TestReplicaCalc*CM*}, the overflow cases), with
 * kube's harness: Pods {@code test-pod-<i>}, one per current replica, Running, with a Ready
 * condition of the given status (True unless given); a Pods metric's levels per Pod, an Object
 * metric's single level, an External metric's series; a tolerance of 0.1 unless given. The
 * per-Pod (AverageValue) Object and External cases use the current replicas as the autoscaler's
 * status replicas, as kube's harness does. Expected replicas and usages are kube's.
 */
class CustomMetricReplicasTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Tolerances DEFAULT = new Tolerances(0.1, 0.1);

  enum Type { POD, OBJECT, OBJECT_PER_POD, EXTERNAL, EXTERNAL_PER_POD }

  record Case(String name, Type type, int current, int expected, long[] levels, long target,
      long expectedUsage, List<String> readiness, Tolerances tolerances) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case c(String name, Type type, int current, int expected, long target,
      long expectedUsage, long... levels) {
    return new Case(name, type, current, expected, levels, target, expectedUsage, List.of(),
        DEFAULT);
  }

  private static Case ready(Case c, String... readiness) {
    return new Case(c.name(), c.type(), c.current(), c.expected(), c.levels(), c.target(),
        c.expectedUsage(), List.of(readiness), c.tolerances());
  }

  private static Case tolerances(Case c, double down, double up) {
    return new Case(c.name(), c.type(), c.current(), c.expected(), c.levels(), c.target(),
        c.expectedUsage(), c.readiness(), new Tolerances(down, up));
  }

  static Stream<Case> cases() {
    return Stream.of(
        c("ScaleUpCM", Type.POD, 3, 4, 15000, 20000, 20000, 10000, 30000),
        // no CPU readiness rule for a Pods metric: the unready Pod counts
        ready(c("ScaleUpCMUnreadyHotCpuNoLessScale", Type.POD, 3, 6, 15000, 30000,
            50000, 10000, 30000), "True", "True", "False"),
        ready(c("ScaleUpCMUnreadyHotCpuScaleWouldScaleDown", Type.POD, 3, 7, 15000, 31666,
            50000, 15000, 30000), "False", "True", "False"),
        c("ScaleUpCMObject", Type.OBJECT, 3, 4, 15000, 20000, 20000),
        c("ScaleUpCMPerPodObject", Type.OBJECT_PER_POD, 3, 4, 5000, 6667, 20000),
        ready(c("ScaleUpCMObjectIgnoresUnreadyPods", Type.OBJECT, 3, 5, 10000, 50000, 50000),
            "False", "True", "False"),
        ready(c("ScaleUpCMExternalIgnoresUnreadyPods", Type.EXTERNAL, 3, 2, 4400, 8600, 8600),
            "False", "True", "False"),
        c("ScaleUpPerPodCMExternal", Type.EXTERNAL_PER_POD, 3, 4, 2150, 2867, 8600),
        c("ScaleDownCM", Type.POD, 5, 3, 20000, 12000, 12000, 12000, 12000, 12000, 12000),
        c("ScaleDownPerPodCMObject", Type.OBJECT_PER_POD, 5, 3, 2000, 1200, 6000),
        c("ScaleDownCMObject", Type.OBJECT, 5, 3, 20000, 12000, 12000),
        c("ScaleDownCMExternal", Type.EXTERNAL, 5, 3, 14334, 8600, 8600),
        c("ScaleDownPerPodCMExternal", Type.EXTERNAL_PER_POD, 5, 3, 2867, 1720, 8600),
        c("ToleranceCM", Type.POD, 3, 3, 20000, 20666, 20000, 21000, 21000),
        c("ToleranceCMObject", Type.OBJECT, 3, 3, 20000, 20666, 20666),
        c("TolerancePerPodCMObject", Type.OBJECT_PER_POD, 4, 4, 5000, 5042, 20166),
        c("ToleranceCMExternal", Type.EXTERNAL, 3, 3, 8888, 8600, 8600),
        c("TolerancePerPodCMExternal", Type.EXTERNAL_PER_POD, 3, 3, 2900, 2867, 8600),
        tolerances(c("ConfigurableToleranceCM", Type.POD, 3, 4, 20000, 20666,
            20000, 21000, 21000), 0.1, 0.01),
        tolerances(c("ConfigurableToleranceCMObject", Type.OBJECT, 3, 4, 20000, 20666, 20666),
            0.1, 0.01),
        tolerances(c("ConfigurableTolerancePerPodCMObject", Type.OBJECT_PER_POD, 4, 5, 5000,
            5052, 20208), 0.1, 0.01),
        tolerances(c("ConfigurableToleranceCMExternal", Type.EXTERNAL, 3, 4, 8800, 8900, 8900),
            0.1, 0.01),
        tolerances(c("ConfigurableTolerancePerPodCMExternal", Type.EXTERNAL_PER_POD, 3, 4,
            2800, 2867, 8600), 0.1, 0.01),
        c("ScaleUpOverflow", Type.OBJECT, 3, Integer.MAX_VALUE, 1, Long.MAX_VALUE,
            Long.MAX_VALUE),
        c("ExternalPerPodMetricReplicaOverflow", Type.EXTERNAL_PER_POD, 1, Integer.MAX_VALUE, 1,
            Long.MAX_VALUE, Long.MAX_VALUE),
        c("ExternalPerPodMetricUsageOverflow", Type.EXTERNAL_PER_POD, 1, 1, Long.MAX_VALUE,
            Long.MAX_VALUE, Long.MAX_VALUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void replicasAndUsageAreKubes(Case c) {
    List<MapValue> pods = pods(c);
    List<Long> levels = Arrays.stream(c.levels()).boxed().toList();
    UsageResult r = switch (c.type()) {
      case POD -> calculator().metricReplicas(c.current(), c.target(), c.tolerances(), pods,
          podMetrics(c), NOW);
      case OBJECT -> new UsageResult(ReplicaCalculator.objectReplicas(c.current(),
          c.levels()[0], c.target(), c.tolerances(), pods), c.levels()[0]);
      case OBJECT_PER_POD -> ReplicaCalculator.objectPerPodReplicas(c.current(), c.levels()[0],
          c.target(), c.tolerances());
      case EXTERNAL -> ReplicaCalculator.externalReplicas(c.current(), levels, c.target(),
          c.tolerances(), pods);
      case EXTERNAL_PER_POD -> ReplicaCalculator.externalPerPodReplicas(c.current(), levels,
          c.target(), c.tolerances());
    };
    assertThat(r.replicas()).as("replicas").isEqualTo(c.expected());
    assertThat(r.usage()).as("usage").isEqualTo(c.expectedUsage());
  }

  @Test
  void fromZeroReplicasTheRatioAloneDecides() {
    // kube's getUsageRatioReplicaCount: scaling from zero ignores Pods and the tolerance
    assertThat(ReplicaCalculator.objectReplicas(0, 1050, 1000, DEFAULT, List.of()))
        .isEqualTo(2);
    assertThat(ReplicaCalculator.externalReplicas(0, List.of(0L), 1000, DEFAULT, List.of())
        .replicas()).isZero();
  }

  @Test
  void aValueTargetWithoutPodsFailsAsKube() {
    assertThatThrownBy(() -> ReplicaCalculator.objectReplicas(3, 20000, 10000, DEFAULT,
        List.of())).isInstanceOf(MetricException.class)
        .hasMessage("unable to calculate ready pods: no pods returned by selector while"
            + " calculating replica count");
  }

  @Test
  void goStringOfASelectorIsKubes() {
    assertThat(GoStrings.labelSelector(null)).isEqualTo("nil");
    assertThat(GoStrings.labelSelector(MapValue.ofEntries("matchLabels",
        MapValue.ofEntries("label", Value.of("value"))))).isEqualTo(
            "&LabelSelector{MatchLabels:map[string]string{label: value,},"
                + "MatchExpressions:[]LabelSelectorRequirement{},}");
  }

  private static ReplicaCalculator calculator() {
    return new ReplicaCalculator(Duration.ofMinutes(2), Duration.ofSeconds(10));
  }

  /** kube's {@code prepareTestClientSet}: one Running Pod per current replica. */
  private static List<MapValue> pods(Case c) {
    List<MapValue> out = new ArrayList<>();
    for (int i = 0; i < c.current(); i++) {
      String readiness = i < c.readiness().size() ? c.readiness().get(i) : "True";
      out.add(MapValue.ofEntries(
          "metadata", MapValue.ofEntries("name", Value.of("test-pod-" + i),
              "namespace", Value.of("test-namespace")),
          "spec", MapValue.ofEntries("containers", ListValue.of(List.of(
              MapValue.ofEntries("name", Value.of("container1"))))),
          "status", MapValue.ofEntries("phase", Value.of("Running"),
              "startTime", Value.of(NOW.minus(Duration.ofMinutes(3)).toString()),
              "conditions", ListValue.of(List.of(MapValue.ofEntries("type", Value.of("Ready"),
                  "status", Value.of(readiness)))))));
    }
    return out;
  }

  private static Map<String, PodMetric> podMetrics(Case c) {
    Map<String, PodMetric> out = new LinkedHashMap<>();
    for (int i = 0; i < c.levels().length; i++) {
      out.put("test-pod-" + i, new PodMetric(c.levels()[i], NOW, Duration.ofMinutes(1)));
    }
    return out;
  }
}
