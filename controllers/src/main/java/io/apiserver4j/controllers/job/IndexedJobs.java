/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.completionIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasFinalizer;
import static io.apiserver4j.controllers.job.JobUtils.podFailed;
import static io.apiserver4j.controllers.job.JobUtils.onlyReplaceFailed;
import static io.apiserver4j.controllers.job.JobUtils.terminating;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's index bookkeeping of Indexed Jobs (pkg/controller/job/indexed_job_utils.go): which
 * indexes succeeded, failed (with {@code spec.backoffLimitPerIndex}) or are pending, the failure
 * counts a replacement Pod carries in its annotations, and the failed Pod whose deletion waits
 * for its replacement. Pure functions of their arguments.
 */
final class IndexedJobs {
  private IndexedJobs() {}

  /** kube's {@code firstPendingIndexes}. */
  static List<Integer> firstPendingIndexes(JobSyncContext ctx, int count, int completions) {
    List<Integer> out = new ArrayList<>();
    if (count == 0) {
      return out;
    }
    Set<Integer> taken = new TreeSet<>();
    for (MapValue p : ctx.activePods) {
      int ix = completionIndex(p);
      if (ix >= 0) {
        taken.add(ix);
      }
    }
    if (onlyReplaceFailed(ctx.job)) {
      for (MapValue p : ctx.pods) {
        int ix = completionIndex(p);
        if (terminating(p) && ix >= 0) {
          taken.add(ix);
        }
      }
    }
    Intervals nonPending = ctx.succeededIndexes.with(taken);
    if (ctx.failedIndexes != null) {
      nonPending = nonPending.merge(ctx.failedIndexes);
    }
    for (int candidate = 0; candidate < completions && out.size() < count; candidate++) {
      if (!nonPending.has(candidate)) {
        out.add(candidate);
      }
    }
    return out;
  }

  /**
   * kube's {@code calculateFailedIndexes}: {@code status.failedIndexes} with the indexes of Pods
   * not counted yet (tracking finalizer present) that failed their index.
   */
  static Intervals failedIndexes(MapValue job, List<MapValue> pods) {
    long completions = Nested.integer(job, "spec", "completions");
    Intervals prev = Intervals.EMPTY;
    if (Nested.has(job, "status", "failedIndexes")) {
      prev = Intervals.parse(Nested.str(job, "status", "failedIndexes"), completions);
    }
    Set<Integer> fresh = new TreeSet<>();
    for (MapValue p : pods) {
      int ix = completionIndex(p);
      if (ix >= 0 && ix < completions && hasFinalizer(p) && isIndexFailed(job, p)) {
        fresh.add(ix);
      }
    }
    return prev.with(fresh);
  }

  /**
   * kube's {@code isIndexFailed}: the Pod failed by a {@code FailIndex} rule, or it failed,
   * counts, and its index had already failed {@code spec.backoffLimitPerIndex} times.
   */
  static boolean isIndexFailed(MapValue job, MapValue pod) {
    boolean counted = false;
    if (podFailed(pod, job)) {
      PodFailurePolicy.Match match = PodFailurePolicy.match(job, pod);
      if (match.action().filter("FailIndex"::equals).isPresent()) {
        return true;
      }
      counted = match.countFailed();
    }
    return counted && failureCount(pod) >= Nested.integer(job, "spec", "backoffLimitPerIndex");
  }

  /**
   * kube's {@code getPodsWithDelayedDeletionPerIndex}: per index neither succeeded, failed nor
   * active, its last failed Pod (most failures, then latest finish), whose tracking finalizer
   * stays until the replacement carrying its failure counts is created.
   */
  static Map<Integer, MapValue> podsWithDelayedDeletion(JobSyncContext ctx) {
    Set<Integer> active = new TreeSet<>();
    for (MapValue p : ctx.activePods) {
      int ix = completionIndex(p);
      if (ix >= 0) {
        active.add(ix);
      }
    }
    long completions = Nested.integer(ctx.job, "spec", "completions");
    Map<Integer, MapValue> out = new HashMap<>();
    for (MapValue p : ctx.pods) {
      if (!hasFinalizer(p) || ctx.expectedRmFinalizers.contains(Meta.metaString(p, "uid"))
          || !podFailed(p, ctx.job)) {
        continue;
      }
      int ix = completionIndex(p);
      if (ix < 0 || ix >= completions || ctx.succeededIndexes.has(ix)
          || ctx.failedIndexes.has(ix) || active.contains(ix)) {
        continue;
      }
      MapValue last = out.get(ix);
      if (last == null || absoluteFailureCount(last) <= absoluteFailureCount(p)
          && !Backoff.finishedTime(p).isBefore(Backoff.finishedTime(last))) {
        out.put(ix, p);
      }
    }
    return out;
  }

  /**
   * kube's {@code getNewIndexFailureCounts} as the annotations of a Pod replacing
   * {@code replaced} (none: both counts 0, the ignored one then omitted): the failure counted
   * by the pod failure policy, or else ignored.
   */
  static Map<String, String> failureCountAnnotations(MapValue job, MapValue replaced) {
    int failures = 0;
    int ignored = 0;
    if (replaced != null) {
      failures = failureCount(replaced);
      ignored = ignoredFailureCount(replaced);
      if (PodFailurePolicy.match(job, replaced).countFailed()) {
        failures++;
      } else {
        ignored++;
      }
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put(JobController.INDEX_FAILURE_COUNT, Integer.toString(failures));
    if (ignored > 0) {
      out.put(JobController.INDEX_IGNORED_FAILURE_COUNT, Integer.toString(ignored));
    }
    return out;
  }

  /** kube's {@code getIndexFailureCount}: the annotation's count, 0 when absent or bad. */
  static int failureCount(MapValue pod) {
    return parseCount(Meta.annotations(pod).get(JobController.INDEX_FAILURE_COUNT));
  }

  /** The {@code job-index-ignored-failure-count} annotation's count, 0 when absent or bad. */
  static int ignoredFailureCount(MapValue pod) {
    return parseCount(Meta.annotations(pod).get(JobController.INDEX_IGNORED_FAILURE_COUNT));
  }

  /** kube's {@code getIndexAbsoluteFailureCount}: counted and ignored failures together. */
  static int absoluteFailureCount(MapValue pod) {
    return failureCount(pod) + ignoredFailureCount(pod);
  }

  /** kube's {@code parseInt32}: 0 for what is not an integer in [0, MaxInt32]. */
  private static int parseCount(String value) {
    if (value == null) {
      return 0;
    }
    try {
      long v = Long.parseLong(value);
      return v < 0 || v > Integer.MAX_VALUE ? 0 : (int) v;
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /**
   * What kube's {@code getPodCreationInfoForIndependentIndexes} decides.
   *
   * @param indexes the indexes whose Pods can be created now
   * @param delay when none can, how long until the first can; zero otherwise
   */
  record Creation(List<Integer> indexes, Duration delay) {}

  /**
   * kube's {@code getPodCreationInfoForIndependentIndexes}: of the pending {@code indexes},
   * those past their own backoff (from the last failed Pod in {@code delayed}) at {@code now};
   * if none is, the least remaining wait.
   */
  static Creation creationInfo(List<Integer> indexes, Map<Integer, MapValue> delayed,
      Instant now) {
    List<Integer> ready = new ArrayList<>();
    Duration wait = null;
    for (int ix : indexes) {
      Duration left = Backoff.remainingPerIndex(delayed.get(ix), now);
      if (left.isZero()) {
        ready.add(ix);
      } else if (wait == null || left.compareTo(wait) < 0) {
        wait = left;
      }
    }
    if (!ready.isEmpty() || wait == null) {
      return new Creation(ready, Duration.ZERO);
    }
    return new Creation(ready, wait);
  }
}
