/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The per-index cases of kube's pkg/controller/job/indexed_job_utils_test.go
 * ({@code TestIsIndexFailed}, {@code TestCalculateFailedIndexes},
 * {@code TestGetPodsWithDelayedDeletionPerIndex}, {@code TestGetNewIndexFailureCountValue},
 * {@code TestGetIndexFailureCount}, {@code TestFirstPendingIndexes} "with failed indexes",
 * {@code TestIntervalsHaveIndex}), job_controller_test.go's
 * {@code TestGetPodCreationInfoForIndependentIndexes} and backoff_utils_test.go's
 * {@code TestGetRemainingBackoffTimePerIndex}, with kube's expected values. kube's
 * {@code buildPod()} Pods have no creation time (the zero time), so only a deletion time makes
 * a failure recent.
 */
class IndexedJobsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final String FAIL_INDEX_ON_3 = "\"podFailurePolicy\":{\"rules\":[{\"action\":"
      + "\"FailIndex\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[3]}}]}";
  private static final String IGNORE_DISRUPTION = "\"podFailurePolicy\":{\"rules\":[{\"action\":"
      + "\"Ignore\",\"onPodConditions\":[{\"type\":\"DisruptionTarget\",\"status\":\"True\"}]}]}";

  /** kube's {@code buildPod()}: a Pod built up field by field. */
  private static final class PodBuilder {
    private final Map<String, String> annotations = new HashMap<>();
    private String uid = "";
    private String phase = "";
    private boolean finalizer;
    private Instant deleted;
    private int exitCode = -1;
    private String condition;

    PodBuilder uid(String v) {
      uid = v;
      return this;
    }

    PodBuilder index(String v) {
      annotations.put(JobController.COMPLETION_INDEX, v);
      return this;
    }

    PodBuilder indexFailureCount(String v) {
      annotations.put(JobController.INDEX_FAILURE_COUNT, v);
      return this;
    }

    PodBuilder indexIgnoredFailureCount(String v) {
      annotations.put(JobController.INDEX_IGNORED_FAILURE_COUNT, v);
      return this;
    }

    PodBuilder phase(String v) {
      phase = v;
      return this;
    }

    PodBuilder trackingFinalizer() {
      finalizer = true;
      return this;
    }

    PodBuilder customDeletionTimestamp(Instant t) {
      deleted = t;
      return this;
    }

    PodBuilder exitCode(int v) {
      exitCode = v;
      return this;
    }

    PodBuilder condition(String type) {
      condition = type;
      return this;
    }

    MapValue build() {
      StringBuilder meta = new StringBuilder("{\"name\":\"p-" + uid + "\",\"namespace\":\"default\","
          + "\"uid\":\"" + uid + "\",\"annotations\":" + Json.write(toValue(annotations)));
      if (finalizer) {
        meta.append(",\"finalizers\":[\"").append(JobController.TRACKING_FINALIZER)
            .append("\"]");
      }
      if (deleted != null) {
        meta.append(",\"deletionTimestamp\":\"").append(Meta.formatTime(deleted)).append('"');
      }
      StringBuilder status = new StringBuilder("{\"phase\":\"" + phase + "\"");
      if (exitCode >= 0) {
        status.append(",\"containerStatuses\":[{\"name\":\"\",\"state\":{\"terminated\":"
            + "{\"exitCode\":").append(exitCode).append("}}}]");
      }
      if (condition != null) {
        status.append(",\"conditions\":[{\"type\":\"").append(condition)
            .append("\",\"status\":\"True\"}]");
      }
      status.append('}');
      return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":" + meta
          + "},\"spec\":{},\"status\":" + status + "}");
    }

    private static MapValue toValue(Map<String, String> m) {
      MapValue.Builder b = MapValue.builder();
      m.forEach((k, v) -> b.put(k, Value.of(v)));
      return b.build();
    }
  }

  private static PodBuilder buildPod() {
    return new PodBuilder();
  }

  private static MapValue job(String spec, String status) {
    return (MapValue) Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
        + "{\"name\":\"foobar\",\"namespace\":\"default\"},\"spec\":{\"completionMode\":"
        + "\"Indexed\"" + (spec.isEmpty() ? "" : "," + spec) + "},\"status\":{" + status + "}}");
  }

  // ---- TestIsIndexFailed ----

  static Stream<Arguments> isIndexFailed() {
    return Stream.of(
        Arguments.of("failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=0",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", ""), buildPod()
                .indexFailureCount("0").phase("Failed").index("0").trackingFinalizer().build(),
            true),
        Arguments.of("failed pod exceeding backoffLimitPerIndex, when backoffLimitPerIndex=1",
            job("\"completions\":2,\"backoffLimitPerIndex\":1", ""), buildPod()
                .indexFailureCount("1").phase("Failed").index("1").trackingFinalizer().build(),
            true),
        Arguments.of("matching FailIndex pod failure policy",
            job("\"completions\":2,\"backoffLimitPerIndex\":1," + FAIL_INDEX_ON_3, ""),
            buildPod().indexFailureCount("0").phase("Failed").exitCode(3).index("0")
                .trackingFinalizer().build(),
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void isIndexFailed(String name, MapValue job, MapValue pod, boolean want) {
    assertThat(IndexedJobs.isIndexFailed(job, pod)).isEqualTo(want);
  }

  // ---- TestCalculateFailedIndexes ----

  static Stream<Arguments> calculateFailedIndexes() {
    return Stream.of(
        Arguments.of("one new index failed", job("\"completions\":2,\"backoffLimitPerIndex\":1",
            ""), List.of(
                buildPod().indexFailureCount("0").phase("Failed").index("0").trackingFinalizer()
                    .build(),
                buildPod().indexFailureCount("1").phase("Failed").index("1").trackingFinalizer()
                    .build()), "1"),
        Arguments.of("pod without finalizer is ignored",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", ""),
            List.of(buildPod().indexFailureCount("0").phase("Failed").index("0").build()), ""),
        Arguments.of("pod outside completions is ignored",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", ""),
            List.of(buildPod().indexFailureCount("0").phase("Failed").index("3").build()), ""),
        Arguments.of("extend the failed indexes",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", "\"failedIndexes\":\"0\""),
            List.of(buildPod().indexFailureCount("0").phase("Failed").index("1")
                .trackingFinalizer().build()), "0,1"),
        Arguments.of("prev failed indexes empty",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", "\"failedIndexes\":\"\""),
            List.of(buildPod().indexFailureCount("0").phase("Failed").index("1")
                .trackingFinalizer().build()), "1"),
        Arguments.of("prev failed indexes outside the completions",
            job("\"completions\":2,\"backoffLimitPerIndex\":0", "\"failedIndexes\":\"9\""),
            List.of(buildPod().indexFailureCount("0").phase("Failed").index("1")
                .trackingFinalizer().build()), "1"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void calculateFailedIndexes(String name, MapValue job, List<MapValue> pods, String want) {
    assertThat(IndexedJobs.failedIndexes(job, pods).toString()).isEqualTo(want);
  }

  // ---- TestGetPodsWithDelayedDeletionPerIndex ----

  static Stream<Arguments> podsWithDelayedDeletion() {
    String bl0 = "\"completions\":2,\"backoffLimitPerIndex\":0";
    String bl1 = "\"completions\":2,\"backoffLimitPerIndex\":1";
    String bl4 = "\"completions\":2,\"backoffLimitPerIndex\":4";
    return Stream.of(
        Arguments.of("failed pods are kept corresponding to non-failed indexes are kept",
            job("\"completions\":3,\"backoffLimitPerIndex\":1", ""), List.of(
                buildPod().uid("a").indexFailureCount("0").phase("Failed").index("0")
                    .trackingFinalizer().build(),
                buildPod().uid("b").indexFailureCount("1").phase("Failed").index("1")
                    .trackingFinalizer().build(),
                buildPod().uid("c").indexFailureCount("0").phase("Failed").index("2")
                    .trackingFinalizer().build()), Set.of(), Set.of("a", "c")),
        Arguments.of("failed pod without finalizer; the pod's deletion is not delayed as it "
            + "already started", job(bl0, ""), List.of(buildPod().uid("a")
                .indexFailureCount("0").phase("Failed").index("0").build()), Set.of(), Set.of()),
        Arguments.of("failed pod with expected finalizer removal; the pod's deletion is not "
            + "delayed as it already started", job(bl0, ""), List.of(buildPod().uid("a")
                .indexFailureCount("0").phase("Failed").index("0").trackingFinalizer().build()),
            Set.of("a"), Set.of()),
        Arguments.of("failed pod with index outside of completions; the pod's deletion is not "
            + "delayed", job(bl0, ""), List.of(buildPod().uid("a").indexFailureCount("0")
                .phase("Failed").index("4").trackingFinalizer().build()), Set.of(), Set.of()),
        Arguments.of("failed pod for active index; the pod's deletion is not delayed as it is "
            + "already replaced", job(bl1, ""), List.of(
                buildPod().uid("a1").indexFailureCount("0").phase("Failed").index("0")
                    .trackingFinalizer().build(),
                buildPod().uid("a2").indexFailureCount("1").phase("Running").index("0")
                    .trackingFinalizer().build()), Set.of(), Set.of()),
        Arguments.of("failed pod for succeeded index; the pod's deletion is not delayed as it is "
            + "already replaced", job(bl1, ""), List.of(
                buildPod().uid("a1").indexFailureCount("0").phase("Failed").index("0")
                    .trackingFinalizer().build(),
                buildPod().uid("a2").indexFailureCount("1").phase("Succeeded").index("0")
                    .trackingFinalizer().build()), Set.of(), Set.of()),
        Arguments.of("multiple failed pods for index with different failure count; only the pod "
            + "with highest failure count is kept", job(bl4, ""), List.of(
                buildPod().uid("a1").indexFailureCount("0").phase("Failed").index("0")
                    .trackingFinalizer().build(),
                buildPod().uid("a3").indexFailureCount("2").phase("Failed").index("0")
                    .trackingFinalizer().build(),
                buildPod().uid("a2").indexFailureCount("1").phase("Failed").index("0")
                    .trackingFinalizer().build()), Set.of(), Set.of("a3")),
        Arguments.of("multiple failed pods for index with different finish times; only the last "
            + "failed pod is kept", job(bl4, ""), List.of(
                buildPod().uid("a1").indexFailureCount("1").phase("Failed").index("0")
                    .customDeletionTimestamp(NOW.minusSeconds(1)).trackingFinalizer().build(),
                buildPod().uid("a3").indexFailureCount("1").phase("Failed").index("0")
                    .customDeletionTimestamp(NOW).trackingFinalizer().build(),
                buildPod().uid("a2").indexFailureCount("1").phase("Failed").index("0")
                    .customDeletionTimestamp(NOW.minusSeconds(2)).trackingFinalizer().build()),
            Set.of(), Set.of("a3")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void podsWithDelayedDeletion(String name, MapValue job, List<MapValue> pods,
      Set<String> expectedRmFinalizers, Set<String> want) {
    JobSyncContext ctx = new JobSyncContext();
    ctx.job = job;
    ctx.pods = pods;
    ctx.activePods = pods.stream().filter(Pods::active).toList();
    ctx.expectedRmFinalizers = expectedRmFinalizers;
    ctx.failedIndexes = IndexedJobs.failedIndexes(job, pods);
    List<Integer> succeeded = new ArrayList<>();
    for (MapValue p : pods) {
      int ix = JobUtils.completionIndex(p);
      if (Nested.str(p, "status", "phase").equals("Succeeded") && JobUtils.hasFinalizer(p) && ix >= 0 && ix < 2) {
        succeeded.add(ix);
      }
    }
    ctx.succeededIndexes = Intervals.EMPTY.with(succeeded);
    Set<String> got = new TreeSet<>();
    IndexedJobs.podsWithDelayedDeletion(ctx).values()
        .forEach(p -> got.add(Meta.metaString(p, "uid")));
    assertThat(got).isEqualTo(want);
  }

  // ---- TestGetNewIndexFailureCountValue ----

  static Stream<Arguments> newIndexFailureCounts() {
    MapValue plain = job("", "");
    return Stream.of(
        Arguments.of("first pod created", plain, null, 0, 0),
        Arguments.of("failed pod being replaced with 0 index failure count", plain, buildPod()
            .uid("a").indexFailureCount("0").phase("Failed").index("0").trackingFinalizer()
            .build(), 1, 0),
        Arguments.of("failed pod being replaced with >0 index failure count", plain, buildPod()
            .uid("a").indexFailureCount("3").phase("Failed").index("0").trackingFinalizer()
            .build(), 4, 0),
        Arguments.of("failed pod being replaced, matching the ignore rule",
            job(IGNORE_DISRUPTION, ""), buildPod().uid("a").indexFailureCount("3")
                .phase("Failed").condition("DisruptionTarget").index("3").trackingFinalizer()
                .build(), 3, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void newIndexFailureCounts(String name, MapValue job, MapValue replaced, int wantCount,
      int wantIgnored) {
    Map<String, String> got = IndexedJobs.failureCountAnnotations(job, replaced);
    assertThat(got).containsEntry(JobController.INDEX_FAILURE_COUNT,
        Integer.toString(wantCount));
    if (wantIgnored > 0) {
      assertThat(got).containsEntry(JobController.INDEX_IGNORED_FAILURE_COUNT,
          Integer.toString(wantIgnored));
    } else {
      // kube's addIndexFailureCountAnnotation writes the ignored count only when positive
      assertThat(got).doesNotContainKey(JobController.INDEX_IGNORED_FAILURE_COUNT);
    }
  }

  // ---- TestGetIndexFailureCount ----

  static Stream<Arguments> indexFailureCount() {
    return Stream.of(
        Arguments.of("no annotation", null, 0),
        Arguments.of("valid value", "2", 2),
        Arguments.of("valid maxint32 value", Integer.toString(Integer.MAX_VALUE),
            Integer.MAX_VALUE),
        Arguments.of("too large value", Long.toString(Integer.MAX_VALUE + 1L), 0),
        Arguments.of("negative value", "-1", 0),
        Arguments.of("invalid int value", "xyz", 0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void indexFailureCount(String name, String annotation, int want) {
    PodBuilder b = buildPod();
    if (annotation != null) {
      b.indexFailureCount(annotation);
    }
    assertThat(IndexedJobs.failureCount(b.build())).isEqualTo(want);
  }

  // ---- TestFirstPendingIndexes ----

  @Test
  void firstPendingIndexesSkipFailedIndexes() {
    // kube's "with failed indexes" case
    JobSyncContext ctx = new JobSyncContext();
    ctx.job = job("\"completions\":1", "");
    ctx.activePods = List.of(buildPod().index("3").phase("Pending").build(),
        buildPod().index("9").phase("Pending").build());
    ctx.pods = ctx.activePods;
    ctx.succeededIndexes = Intervals.parse("1,5,9", 20);
    ctx.failedIndexes = Intervals.parse("2,6,7", 20);
    assertThat(IndexedJobs.firstPendingIndexes(ctx, 5, 20)).containsExactly(0, 4, 8, 10, 11);
  }

  // ---- TestIntervalsHaveIndex ----

  static Stream<Arguments> intervalsHaveIndex() {
    return Stream.of(
        Arguments.of("empty", "", 4, false),
        Arguments.of("before all", "2-4,5-7", 1, false),
        Arguments.of("after all", "2-4,6-8", 9, false),
        Arguments.of("in between", "2-4,6-8", 5, false),
        Arguments.of("in first", "2-4,6-8", 2, true),
        Arguments.of("in second", "2-4,6-8", 8, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void intervalsHaveIndex(String name, String intervals, int index, boolean want) {
    assertThat(Intervals.parse(intervals, 100).has(index)).isEqualTo(want);
  }

  @Test
  void failedIndexesUseTheCompletedIndexesFormat() {
    // kube's status.failedIndexes examples (batch/v1 JobStatus docs): "1,3-5,7"
    assertThat(Intervals.EMPTY.with(List.of(7, 1, 3, 4, 5)).toString()).isEqualTo("1,3-5,7");
    assertThat(Intervals.parse("1,3-5,7", 10).total()).isEqualTo(5);
    assertThat(Intervals.EMPTY.with(List.of(0, 2)).toString()).isEqualTo("0,2");
    assertThat(Intervals.EMPTY.toString()).isEmpty();
  }

  // ---- TestGetPodCreationInfoForIndependentIndexes ----

  static Stream<Arguments> creationInfo() {
    return Stream.of(
        Arguments.of("simple index creation", List.of(1, 3), Map.of(), List.of(1, 3),
            Duration.ZERO),
        Arguments.of("subset of indexes can be recreated now", List.of(1, 3), Map.of(1,
            buildPod().indexFailureCount("0").index("1").customDeletionTimestamp(NOW).build()),
            List.of(3), Duration.ZERO),
        Arguments.of("subset of indexes can be recreated now as the pods failed long time ago",
            List.of(1, 3), Map.of(
                1, buildPod().indexFailureCount("0").customDeletionTimestamp(NOW).build(),
                3, buildPod().indexFailureCount("0")
                    .customDeletionTimestamp(NOW.minus(Backoff.DEFAULT)).build()),
            List.of(3), Duration.ZERO),
        Arguments.of("no indexes can be recreated now, need to wait default pod failure backoff",
            List.of(1, 2, 3), Map.of(
                1, buildPod().indexFailureCount("1").customDeletionTimestamp(NOW).build(),
                2, buildPod().indexFailureCount("0").customDeletionTimestamp(NOW).build(),
                3, buildPod().indexFailureCount("2").customDeletionTimestamp(NOW).build()),
            List.of(), Backoff.DEFAULT),
        Arguments.of("no indexes can be recreated now, need to wait but 1s already passed",
            List.of(1, 2, 3), Map.of(
                1, buildPod().indexFailureCount("1").customDeletionTimestamp(NOW.minusSeconds(1))
                    .build(),
                2, buildPod().indexFailureCount("0").customDeletionTimestamp(NOW.minusSeconds(1))
                    .build(),
                3, buildPod().indexFailureCount("2").customDeletionTimestamp(NOW.minusSeconds(1))
                    .build()),
            List.of(), Backoff.DEFAULT.minusSeconds(1)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void creationInfo(String name, List<Integer> indexes, Map<Integer, MapValue> delayed,
      List<Integer> want, Duration wantWait) {
    IndexedJobs.Creation got = IndexedJobs.creationInfo(indexes, delayed, NOW);
    assertThat(got.indexes()).isEqualTo(want);
    assertThat(got.delay()).isEqualTo(wantWait);
  }

  // ---- TestGetRemainingBackoffTimePerIndex ----

  static Stream<Arguments> remainingPerIndex() {
    Instant t = Instant.parse("2009-11-10T23:00:00Z");
    return Stream.of(
        Arguments.of("no failures", null, t, Duration.ZERO),
        Arguments.of("two prev failures; current time and failure time are same", buildPod()
            .phase("Failed").indexFailureCount("2").customDeletionTimestamp(t).build(), t,
            Duration.ofSeconds(20)),
        Arguments.of("one prev failure counted and one ignored; current time and failure time "
            + "are same", buildPod().phase("Failed").indexFailureCount("1")
                .indexIgnoredFailureCount("1").customDeletionTimestamp(t).build(), t,
            Duration.ofSeconds(20)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void remainingPerIndex(String name, MapValue lastFailed, Instant now, Duration want) {
    assertThat(Backoff.remainingPerIndex(lastFailed, now, Duration.ofSeconds(5),
        Duration.ofSeconds(700))).isEqualTo(want);
  }
}
