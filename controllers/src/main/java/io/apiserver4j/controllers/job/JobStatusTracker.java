/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.completionIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasBackoffLimitPerIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasFinalizer;
import static io.apiserver4j.controllers.job.JobUtils.indexed;
import static io.apiserver4j.controllers.job.JobUtils.isSuccessCriteriaMet;
import static io.apiserver4j.controllers.job.JobUtils.podFailed;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube's status tracking of a Job (job_controller.go's {@code trackJobStatusAndRemoveFinalizers}
 * and what it calls): finished Pods go through {@code status.uncountedTerminatedPods} before
 * their tracking finalizer is removed, and are counted once it is gone; the interim
 * {@code FailureTarget}/{@code SuccessCriteriaMet} conditions are written before the terminal
 * {@code Failed}/{@code Complete} one, which waits for nothing left to count or terminate.
 * Thread-safe; a sync owns its context.
 */
final class JobStatusTracker {
  private final JobApi api;
  private final JobEvents events;
  private final FinalizerExpectations finalizerExpectations;
  private final Map<String, Backoff> backoffs;

  JobStatusTracker(JobApi api, JobEvents events, FinalizerExpectations finalizerExpectations,
      Map<String, Backoff> backoffs) {
    this.api = api;
    this.events = events;
    this.finalizerExpectations = finalizerExpectations;
    this.backoffs = backoffs;
  }

  /**
   * kube's {@code canRemoveFinalizer}: the Job is being deleted or finishing, the Pod succeeded,
   * or it failed and is not the one whose deletion waits for its index's replacement.
   */
  private static boolean canRemoveFinalizer(JobSyncContext ctx, MapValue pod, boolean failed) {
    if (Nested.has(ctx.job, "metadata", "deletionTimestamp") || ctx.finishedCondition != null
        || Nested.str(pod, "status", "phase").equals("Succeeded")) {
      return true;
    }
    if (!failed) {
      return false;
    }
    if (hasBackoffLimitPerIndex(ctx.job)) {
      MapValue delayed = ctx.podsWithDelayedDeletion.get(completionIndex(pod));
      if (delayed != null
          && Meta.metaString(delayed, "uid").equals(Meta.metaString(pod, "uid"))) {
        return false;
      }
    }
    return true;
  }

  /** kube's {@code trackJobStatusAndRemoveFinalizers}. */
  void trackStatusAndRemoveFinalizers(String key, JobSyncContext ctx, boolean needsFlush,
      Instant now) {
    JobStatus st = ctx.status;
    List<MapValue> candidates = new ArrayList<>(ctx.pods);
    if (indexed(ctx.job)) {
      candidates.sort(Comparator.comparingInt(JobUtils::completionIndex));
    }
    Set<String> withFinalizer = new HashSet<>();
    for (MapValue p : candidates) {
      String uid = Meta.metaString(p, "uid");
      if (hasFinalizer(p) && !ctx.expectedRmFinalizers.contains(uid)) {
        withFinalizer.add(uid);
      }
    }
    needsFlush |= cleanUncounted(st, withFinalizer);
    long completions = Nested.integer(ctx.job, "spec", "completions");
    List<MapValue> toRemove = new ArrayList<>();
    List<Integer> newSucceededIndexes = new ArrayList<>();
    boolean reachedMax = false;
    for (MapValue pod : candidates) {
      String uid = Meta.metaString(pod, "uid");
      if (!hasFinalizer(pod) || ctx.expectedRmFinalizers.contains(uid)) {
        continue;
      }
      boolean failed = podFailed(pod, ctx.job);
      if (!canRemoveFinalizer(ctx, pod, failed)) {
        continue;
      }
      toRemove.add(pod);
      if (Nested.str(pod, "status", "phase").equals("Succeeded")
          && !ctx.uncountedFailed.contains(uid)) {
        if (indexed(ctx.job)) {
          int ix = completionIndex(pod);
          if (ix >= 0 && ix < completions && !ctx.prevSucceededIndexes.has(ix)) {
            newSucceededIndexes.add(ix);
            needsFlush = true;
          }
        } else if (!ctx.uncountedSucceeded.contains(uid)) {
          needsFlush = true;
          st.uncountedSucceeded.add(uid);
        }
      } else if (failed || ctx.finishedCondition != null
          && !isSuccessCriteriaMet(ctx.finishedCondition)) {
        int ix = completionIndex(pod);
        if (!ctx.uncountedFailed.contains(uid)
            && (!indexed(ctx.job) || ix >= 0 && ix < completions)) {
          if (PodFailurePolicy.match(ctx.job, pod).countFailed()) {
            needsFlush = true;
            st.uncountedFailed.add(uid);
          }
        }
      }
      if (newSucceededIndexes.size() + st.uncountedSucceeded.size() + st.uncountedFailed.size()
          >= JobController.MAX_UNCOUNTED_PODS) {
        reachedMax = true;
        break;
      }
    }
    if (indexed(ctx.job)) {
      ctx.succeededIndexes = ctx.succeededIndexes.with(newSucceededIndexes);
      String text = ctx.succeededIndexes.toString();
      if (!text.equals(st.completedIndexes)) {
        needsFlush = true;
      }
      st.succeeded = ctx.succeededIndexes.total();
      st.completedIndexes = text;
      Optional<String> failedText = Optional.ofNullable(ctx.failedIndexes)
          .map(Intervals::toString);
      if (!failedText.equals(st.failedIndexes)) {
        st.failedIndexes = failedText;
        needsFlush = true;
      }
    }
    MapValue finished = ctx.finishedCondition;
    if (finished != null && Nested.str(finished, "type").equals("FailureTarget")) {
      st.conditions.add(finished);
      needsFlush = true;
      finished = JobStatus.condition("Failed", "True", Nested.str(finished, "reason"),
          Nested.str(finished, "message"), now);
    }
    if (isSuccessCriteriaMet(finished)) {
      if (!st.isTrue("SuccessCriteriaMet")) {
        st.conditions.add(finished);
        needsFlush = true;
      }
      finished = JobStatus.condition("Complete", "True", Nested.str(finished, "reason"),
          Nested.str(finished, "message"), now);
    }
    ctx.finishedCondition = finished;
    StatusException removeError = null;
    if (needsFlush) {
      ctx.job = api.updateStatus(ctx.job, st);
      backoffs.put(key, ctx.newBackoff);
      needsFlush = false;
    }
    if (!toRemove.isEmpty()) {
      finalizerExpectations.expectRemoved(key,
          toRemove.stream().map(p -> Meta.metaString(p, "uid")).toList());
      for (MapValue pod : toRemove) {
        String uid = Meta.metaString(pod, "uid");
        try {
          api.removeFinalizer(pod);
          withFinalizer.remove(uid);
        } catch (NotFoundException e) {
          finalizerExpectations.removalObserved(key, uid);
          withFinalizer.remove(uid);
        } catch (StatusException e) {
          finalizerExpectations.removalObserved(key, uid);
          if (removeError == null) {
            removeError = e;
          }
        }
      }
    }
    if (cleanUncounted(st, withFinalizer)) {
      needsFlush = true;
    }
    if (removeError != null) {
      if (needsFlush) {
        ctx.job = api.updateStatus(ctx.job, st);
      }
      throw removeError;
    }
    boolean jobFinished = !reachedMax && enactFinished(ctx, now);
    if (jobFinished || needsFlush) {
      ctx.job = api.updateStatus(ctx.job, st);
    }
    if (jobFinished) {
      events.finished(ctx.job, ctx.finishedCondition);
    }
  }

  /** kube's {@code cleanUncountedPodsWithoutFinalizers}: counted once their finalizer is gone. */
  private static boolean cleanUncounted(JobStatus st, Set<String> withFinalizer) {
    boolean updated = false;
    int before = st.uncountedSucceeded.size();
    st.uncountedSucceeded.removeIf(uid -> !withFinalizer.contains(uid));
    if (st.uncountedSucceeded.size() != before) {
      st.succeeded += before - st.uncountedSucceeded.size();
      updated = true;
    }
    before = st.uncountedFailed.size();
    st.uncountedFailed.removeIf(uid -> !withFinalizer.contains(uid));
    if (st.uncountedFailed.size() != before) {
      st.failed += before - st.uncountedFailed.size();
      updated = true;
    }
    return updated;
  }

  /** kube's {@code enactJobFinished}: the terminal condition once nothing is left to count. */
  private static boolean enactFinished(JobSyncContext ctx, Instant now) {
    MapValue c = ctx.finishedCondition;
    if (c == null) {
      return false;
    }
    JobStatus st = ctx.status;
    if (!st.uncountedSucceeded.isEmpty() || !st.uncountedFailed.isEmpty()) {
      return false;
    }
    if (ctx.terminating > 0) {
      return false;
    }
    st.ensureCondition(Nested.str(c, "type"), Nested.str(c, "status"), Nested.str(c, "reason"),
        Nested.str(c, "message"), now);
    if (Nested.str(c, "type").equals("Complete")) {
      st.completionTime = Optional.of(Nested.str(c, "lastTransitionTime"));
    }
    return true;
  }
}
