/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.controllers.metrics.PodMetrics;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.MetricException;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.Tolerances;
import io.apiserver4j.controllers.podautoscaler.ReplicaCalculator.UtilizationResult;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
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
 * The resource cases of kube's {@code replica_calculator_test.go} that the model expresses, with
 * kube's harness: Pods {@code test-pod-<i>} with two containers ({@code container1},
 * {@code container2}) each requesting the Pod's request, a Ready condition of the given status
 * without a transition time, metrics per container sampled at the test's timestamp (Go's zero
 * time unless given) over one minute, a 2-minute CPU initialization period, a 10-second initial
 * readiness delay and a tolerance of 0.1. "Hot" Pods started now, "cool" ones 3 minutes ago.
 * Expected replicas, utilizations and raw values are kube's.
 */
class ReplicaCalculatorTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Instant ZERO = ReplicaCalculator.ZERO_TIME;
  private static final Instant HOT = NOW;
  private static final Instant COOL = NOW.minus(Duration.ofMinutes(3));
  private static final Tolerances TOLERANCE = new Tolerances(0.1, 0.1);

  /** One case: the pods' readiness, start times, phases and deletion, and the metrics. */
  record Case(String name, int currentReplicas, int expectedReplicas, int target,
      int expectedUtilization, long expectedValue, List<String> requests, long[][] levels,
      List<String> readiness, List<Instant> startTimes, List<String> phases,
      List<Boolean> deleting, String container, List<String> podNames) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static final class B {
    String name;
    int current;
    int expected;
    int target;
    int utilization;
    long value;
    List<String> requests = List.of();
    long[][] levels = new long[0][];
    List<String> readiness = List.of();
    List<Instant> starts = List.of();
    List<String> phases = List.of();
    List<Boolean> deleting = List.of();
    String container = "";
    List<String> podNames = List.of();

    B(String name, int current, int expected) {
      this.name = name;
      this.current = current;
      this.expected = expected;
    }

    B cpu(int target, int utilization, long value, String... requests) {
      this.target = target;
      this.utilization = utilization;
      this.value = value;
      this.requests = List.of(requests);
      return this;
    }

    /** kube's {@code makePodMetricLevels}: each container of Pod i uses {@code levels[i]}. */
    B levels(long... each) {
      this.levels = Arrays.stream(each).mapToObj(l -> new long[] {l, l}).toArray(long[][]::new);
      return this;
    }

    B containerLevels(long[]... levels) {
      this.levels = levels;
      return this;
    }

    B readiness(String... r) {
      this.readiness = List.of(r);
      return this;
    }

    B starts(Instant... s) {
      this.starts = List.of(s);
      return this;
    }

    B phases(String... p) {
      this.phases = List.of(p);
      return this;
    }

    B deleting(Boolean... d) {
      this.deleting = List.of(d);
      return this;
    }

    B container(String c) {
      this.container = c;
      return this;
    }

    Case build() {
      return new Case(name, current, expected, target, utilization, value, requests, levels,
          readiness, starts, phases, deleting, container, podNames);
    }
  }

  static Stream<Case> cases() {
    String one = "1.0";
    return Stream.of(
        new B("ScaleUp", 3, 5).cpu(30, 50, 2 * 500, one, one, one).levels(300, 500, 700),
        new B("ContainerScaleUp", 3, 5).cpu(30, 50, 500, one, one, one)
            .containerLevels(new long[] {1000, 300}, new long[] {1000, 500},
                new long[] {1000, 700}).container("container2"),
        new B("ScaleUpUnreadyLessScale", 3, 4).cpu(30, 60, 2 * 600, one, one, one)
            .levels(300, 500, 700).readiness("False", "True", "True"),
        new B("ScaleUpContainerHotCpuLessScale", 3, 4).cpu(30, 60, 600, one, one, one)
            .containerLevels(new long[] {0, 300}, new long[] {0, 500}, new long[] {0, 700})
            .starts(HOT, COOL, COOL).container("container2"),
        new B("ScaleUpHotCpuLessScale", 3, 4).cpu(30, 60, 2 * 600, one, one, one)
            .levels(300, 500, 700).starts(HOT, COOL, COOL),
        new B("ScaleUpUnreadyNoScale", 3, 3).cpu(30, 40, 2 * 400, one, one, one)
            .levels(400, 500, 700).readiness("True", "False", "False"),
        new B("ScaleHotCpuNoScale", 3, 3).cpu(30, 40, 2 * 400, one, one, one)
            .levels(400, 500, 700).readiness("True", "False", "False")
            .starts(COOL, HOT, HOT),
        new B("ScaleUpIgnoresFailedPods", 2, 4).cpu(30, 60, 2 * 600, one, one, one, one)
            .levels(500, 700).readiness("True", "True", "False", "False")
            .phases("Running", "Running", "Failed", "Failed"),
        new B("ScaleUpContainerIgnoresFailedPods", 2, 4).cpu(30, 60, 600, one, one, one, one)
            .containerLevels(new long[] {1000, 500}, new long[] {9000, 700})
            .readiness("True", "True", "False", "False")
            .phases("Running", "Running", "Failed", "Failed").container("container2"),
        new B("ScaleUpIgnoresDeletionPods", 2, 4).cpu(30, 60, 2 * 600, one, one, one, one)
            .levels(500, 700).readiness("True", "True", "False", "False")
            .phases("Running", "Running", "Running", "Running")
            .deleting(false, false, true, true),
        new B("ScaleDown", 5, 3).cpu(50, 28, 2 * 280, one, one, one, one, one)
            .levels(100, 300, 500, 250, 250),
        new B("ContainerScaleDown", 5, 3).cpu(50, 28, 280, one, one, one, one, one)
            .containerLevels(new long[] {1000, 100}, new long[] {1000, 300},
                new long[] {1000, 500}, new long[] {1000, 250}, new long[] {1000, 250})
            .container("container2"),
        new B("ScaleDownExcludeUnreadyPods", 5, 2).cpu(50, 30, 2 * 300, one, one, one, one, one)
            .levels(100, 300, 500, 250, 250).readiness("True", "True", "True", "False", "False"),
        new B("ScaleDownExcludeUnscheduledPods", 5, 1)
            .cpu(50, 10, 2 * 100, one, one, one, one, one).levels(100)
            .readiness("True", "False", "False", "False", "False")
            .phases("Running", "Pending", "Pending", "Pending", "Pending"),
        new B("ScaleDownIgnoreHotCpuPods", 5, 2).cpu(50, 30, 2 * 300, one, one, one, one, one)
            .levels(100, 300, 500, 250, 250).starts(COOL, COOL, COOL, HOT, HOT),
        new B("ScaleDownContainerIgnoreHotCpuPods", 5, 2)
            .cpu(50, 30, 300, one, one, one, one, one)
            .containerLevels(new long[] {1000, 100}, new long[] {1000, 300},
                new long[] {1000, 500}, new long[] {1000, 1000}, new long[] {1000, 1000})
            .starts(COOL, COOL, COOL, HOT, HOT).container("container2"),
        new B("ScaleDownIgnoresFailedPods", 5, 3)
            .cpu(50, 28, 2 * 280, one, one, one, one, one, one, one)
            .levels(100, 300, 500, 250, 250)
            .readiness("True", "True", "True", "True", "True", "False", "False")
            .phases("Running", "Running", "Running", "Running", "Running", "Failed", "Failed"),
        new B("ScaleDownIgnoresDeletionPods", 5, 3)
            .cpu(50, 28, 2 * 280, one, one, one, one, one, one, one)
            .levels(100, 300, 500, 250, 250)
            .readiness("True", "True", "True", "True", "True", "False", "False")
            .phases("Running", "Running", "Running", "Running", "Running", "Running", "Running")
            .deleting(false, false, false, false, false, true, true),
        new B("ScaleDownIgnoresDeletionPods_StillRunning", 5, 3)
            .cpu(50, 28, 280, one, one, one, one, one, one, one)
            .containerLevels(new long[] {1000, 100}, new long[] {1000, 300},
                new long[] {1000, 500}, new long[] {1000, 250}, new long[] {1000, 250})
            .readiness("True", "True", "True", "True", "True", "False", "False")
            .phases("Running", "Running", "Running", "Running", "Running", "Running", "Running")
            .deleting(false, false, false, false, false, true, true).container("container2"),
        new B("Tolerance", 3, 3).cpu(100, 102, 2 * 1020, "0.9", "1.0", "1.1")
            .levels(1010, 1030, 1020),
        new B("SuperfluousMetrics", 4, 24).cpu(100, 587, 2 * 5875, one, one, one, one)
            .levels(4000, 9500, 3000, 7000, 3200, 2000),
        new B("MissingMetrics", 4, 3).cpu(100, 24, 495, one, one, one, one).levels(400, 95),
        new B("MissingMetricsNoChangeEq", 2, 2).cpu(100, 100, 2 * 1000, one, one)
            .levels(1000),
        new B("MissingMetricsNoChangeGt", 2, 2).cpu(100, 190, 2 * 1900, one, one)
            .levels(1900),
        new B("MissingMetricsNoChangeLt", 2, 2).cpu(100, 60, 2 * 600, one, one).levels(600),
        new B("MissingMetricsUnreadyChange", 3, 3).cpu(50, 45, 2 * 450, one, one, one)
            .levels(100, 450).readiness("False", "True", "True")
    ).map(B::build);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void resourceReplicasAsKube(Case c) {
    List<MapValue> pods = pods(c);
    UtilizationResult r = calculator().resourceReplicas(c.currentReplicas(), c.target(), "cpu",
        TOLERANCE, pods, metrics(c, ZERO), c.container(), NOW);

    assertThat(r.replicas()).as("replicas").isEqualTo(c.expectedReplicas());
    assertThat(r.utilization()).as("utilization").isEqualTo(c.expectedUtilization());
    assertThat(r.rawUtilization()).as("raw value").isEqualTo(c.expectedValue());
  }

  @Test
  void disjointResourcesMetricsFailAsKube() {
    Case c = new B("DisjointResourcesMetrics", 1, 0).cpu(100, 0, 0, "1.0").levels(100).build();
    Map<String, PodMetric> metrics = Map.of("an-older-pod-name",
        new PodMetric(200, ZERO, Duration.ofMinutes(1)));

    assertThatThrownBy(() -> calculator().resourceReplicas(1, 100, "cpu", TOLERANCE, pods(c),
        metrics, "", NOW)).isInstanceOf(MetricException.class)
        .hasMessage("no metrics returned matched known pods");
  }

  @Test
  void emptyCpuRequestFailsAsKube() {
    Case c = new B("EmptyCPURequest", 1, 0).cpu(100, 0, 0).levels(200).build();

    assertThatThrownBy(() -> calculator().resourceReplicas(1, 100, "cpu", TOLERANCE, pods(c),
        metrics(c, ZERO), "", NOW)).isInstanceOf(MetricException.class)
        .hasMessageStartingWith("missing request for");
  }

  @Test
  void emptyMetricsFailAsKube() {
    Case c = new B("EmptyMetrics", 4, 0).cpu(100, 0, 0, "1.0", "1.0", "1.0").build();

    assertThatThrownBy(() -> ReplicaCalculator.resourceMetrics(PodMetrics.create(),
        "test-namespace", pods(c), "cpu", "", NOW)).isInstanceOf(MetricException.class)
        .hasMessage("unable to get metrics for resource cpu: no metrics returned from resource"
            + " metrics API");
  }

  @Test
  void podMetricsAreReadAsKubesMetricsClient() {
    Case c = new B("read", 2, 0).cpu(100, 0, 0, "1.0", "1.0").build();
    PodMetrics metrics = PodMetrics.create()
        .setContainerUsage("test-namespace", "test-pod-0", "container1", "100m", "1Mi")
        .setContainerUsage("test-namespace", "test-pod-0", "container2", "0.25", "1Mi")
        .setContainerUsage("test-namespace", "test-pod-1", "container1",
            Map.of("memory", "1Mi"));

    Map<String, PodMetric> read = ReplicaCalculator.resourceMetrics(metrics, "test-namespace",
        pods(c), "cpu", "", NOW);

    // a Pod with a container lacking the resource is missing, as kube's getPodMetrics
    assertThat(read).containsOnlyKeys("test-pod-0");
    assertThat(read.get("test-pod-0")).isEqualTo(new PodMetric(350, NOW, PodMetrics.WINDOW));
    assertThatThrownBy(() -> ReplicaCalculator.resourceMetrics(metrics, "test-namespace",
        pods(c), "cpu", "container2", NOW)).isInstanceOf(MetricException.class)
        .hasMessage("unable to get metrics for resource cpu: failed to get container metrics:"
            + " container container2 not present in metrics for pod test-namespace/test-pod-1");
  }

  private static ReplicaCalculator calculator() {
    return new ReplicaCalculator(Duration.ofMinutes(2), Duration.ofSeconds(10));
  }

  /** kube's {@code prepareTestClientSet}. */
  private static List<MapValue> pods(Case c) {
    int count = Math.max(c.currentReplicas(), c.phases().size());
    List<MapValue> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String readiness = i < c.readiness().size() ? c.readiness().get(i) : "True";
      Instant start = c.startTimes().isEmpty() ? ZERO : c.startTimes().get(i);
      String phase = c.phases().isEmpty() ? "Running" : c.phases().get(i);
      boolean deleting = !c.deleting().isEmpty() && c.deleting().get(i);
      List<Value> containers = new ArrayList<>();
      for (String name : List.of("container1", "container2")) {
        MapValue container = MapValue.ofEntries("name", Value.of(name));
        if (i < c.requests().size()) {
          container = container.with("resources", MapValue.ofEntries("requests",
              MapValue.ofEntries("cpu", Value.of(c.requests().get(i)))));
        }
        containers.add(container);
      }
      MapValue metadata = MapValue.ofEntries("name", Value.of("test-pod-" + i),
          "namespace", Value.of("test-namespace"),
          "labels", MapValue.ofEntries("name", Value.of("test-pod")));
      if (deleting) {
        metadata = metadata.with("deletionTimestamp", Value.of(Meta.formatTime(NOW)));
      }
      out.add(MapValue.ofEntries("metadata", metadata,
          "spec", MapValue.ofEntries("containers", ListValue.of(containers)),
          "status", MapValue.ofEntries("phase", Value.of(phase),
              "startTime", Value.of(start.toString()),
              "conditions", ListValue.of(List.of(MapValue.ofEntries("type", Value.of("Ready"),
                  "status", Value.of(readiness)))))));
    }
    return out;
  }

  /** kube's {@code prepareTestMetricsClient} read through {@code getPodMetrics}. */
  private static Map<String, PodMetric> metrics(Case c, Instant timestamp) {
    Map<String, PodMetric> out = new LinkedHashMap<>();
    for (int i = 0; i < c.levels().length; i++) {
      String name = i < c.podNames().size() ? c.podNames().get(i) : "test-pod-" + i;
      long[] l = c.levels()[i];
      long value = c.container().isEmpty() ? Arrays.stream(l).sum()
          : l[Integer.parseInt(c.container().substring("container".length())) - 1];
      out.put(name, new PodMetric(value, timestamp, Duration.ofMinutes(1)));
    }
    return out;
  }
}
