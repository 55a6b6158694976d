/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * kube's Pod failure backoff (pkg/controller/job/backoff_utils.go): per Job, the failures since
 * the last success and the time of the last one; a new Pod waits 10 s doubled per further
 * failure, at most 10 minutes, from that time on the server clock. With
 * {@code backoffLimitPerIndex} each index backs off on its own, counting the failures its last
 * failed Pod's annotations carry ({@link #remainingPerIndex}).
 *
 * @param failuresAfterLastSuccess failures since the last success
 * @param lastFailureTime when the last of them finished, empty when there is none
 */
record Backoff(int failuresAfterLastSuccess, Optional<Instant> lastFailureTime) {
  /** kube's {@code DefaultJobPodFailureBackOff}. */
  static final Duration DEFAULT = Duration.ofSeconds(10);
  /** kube's {@code MaxJobPodFailureBackOff}. */
  static final Duration MAX = Duration.ofMinutes(10);
  static final Backoff NONE = new Backoff(0, Optional.empty());

  /** kube's {@code newBackoffRecord}: this record moved on by newly finished Pods. */
  Backoff next(List<MapValue> newSucceeded, List<MapValue> newFailed) {
    List<MapValue> succeeded = byFinishTime(newSucceeded);
    List<MapValue> failed = byFinishTime(newFailed);
    if (succeeded.isEmpty()) {
      if (failed.isEmpty()) {
        return this;
      }
      return new Backoff(failuresAfterLastSuccess + failed.size(),
          Optional.of(finishedTime(failed.get(failed.size() - 1))));
    }
    Instant lastSuccess = finishedTime(succeeded.get(succeeded.size() - 1));
    int failures = 0;
    Optional<Instant> last = Optional.empty();
    for (int i = failed.size() - 1; i >= 0; i--) {
      Instant t = finishedTime(failed.get(i));
      if (!t.isAfter(lastSuccess)) {
        break;
      }
      if (last.isEmpty()) {
        last = Optional.of(t);
      }
      failures++;
    }
    return new Backoff(failures, last);
  }

  /** kube's {@code getRemainingTime}: how long a new Pod still waits at {@code now}. */
  Duration remaining(Instant now) {
    if (lastFailureTime.isEmpty()) {
      return Duration.ZERO;
    }
    return remaining(failuresAfterLastSuccess, lastFailureTime.get(), now, DEFAULT, MAX);
  }

  /**
   * kube's {@code getRemainingTimePerIndex}: how long the replacement of {@code lastFailed}
   * (the index's last failed Pod, null when there is none) still waits at {@code now}, its
   * failures being those of its annotations plus its own.
   */
  static Duration remainingPerIndex(MapValue lastFailed, Instant now) {
    return remainingPerIndex(lastFailed, now, DEFAULT, MAX);
  }

  /** {@link #remainingPerIndex(MapValue, Instant)} with other initial and maximal delays. */
  static Duration remainingPerIndex(MapValue lastFailed, Instant now, Duration initial,
      Duration max) {
    if (lastFailed == null) {
      return Duration.ZERO;
    }
    return remaining(IndexedJobs.absoluteFailureCount(lastFailed) + 1, finishedTime(lastFailed),
        now, initial, max);
  }

  /**
   * kube's {@code getRemainingTimeForFailuresCount}: {@code initial} doubled per further
   * failure, at most {@code max}, less the time since {@code lastFailure}.
   */
  static Duration remaining(int failures, Instant lastFailure, Instant now, Duration initial,
      Duration max) {
    if (failures == 0) {
      return Duration.ZERO;
    }
    Duration backoff = initial;
    for (int i = 1; i < failures; i++) {
      backoff = backoff.multipliedBy(2);
      if (backoff.compareTo(max) >= 0) {
        backoff = max;
        break;
      }
    }
    Duration elapsed = Duration.between(lastFailure, now);
    if (backoff.compareTo(elapsed) < 0) {
      return Duration.ZERO;
    }
    return backoff.minus(elapsed);
  }

  private static List<MapValue> byFinishTime(List<MapValue> pods) {
    List<MapValue> out = new ArrayList<>(pods);
    out.sort(Comparator.comparing(Backoff::finishedTime));
    return out;
  }

  /**
   * kube's {@code getFinishedTime}: the last container's termination when every container
   * terminated, else a False Ready condition's transition, else the deletion time less its
   * grace period, else the creation time.
   */
  static Instant finishedTime(MapValue pod) {
    Instant latest = null;
    List<Value> statuses = Nested.list(pod, "status", "containerStatuses");
    for (Value s : statuses) {
      Optional<Instant> t = Pods.time(s, "state", "terminated", "finishedAt");
      if (t.isEmpty()) {
        latest = null;
        break;
      }
      if (latest == null || latest.isBefore(t.get())) {
        latest = t.get();
      }
    }
    if (latest != null) {
      return latest;
    }
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready") && Nested.str(c, "status").equals("False")) {
        Optional<Instant> t = Pods.time(c, "lastTransitionTime");
        if (t.isPresent()) {
          return t.get();
        }
      }
    }
    Optional<Instant> deleted = Pods.time(pod, "metadata", "deletionTimestamp");
    if (deleted.isPresent()) {
      Long grace = Meta.deletionGracePeriod(pod);
      return deleted.get().minusSeconds(grace == null ? 0 : grace);
    }
    return Pods.time(pod, "metadata", "creationTimestamp").orElse(Instant.EPOCH);
  }
}
