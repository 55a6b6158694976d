/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.hasBackoffLimitPerIndex;
import static io.apiserver4j.controllers.job.JobUtils.hasFinalizer;
import static io.apiserver4j.controllers.job.JobUtils.indexed;
import static io.apiserver4j.controllers.job.JobUtils.onlyReplaceFailed;
import static io.apiserver4j.controllers.job.JobUtils.podsForRemoval;
import static io.apiserver4j.controllers.job.JobUtils.suspended;

import io.apiserver4j.controllers.internal.Expectations;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code manageJob} and its Pod deletions: creates a Job's missing Pods (for an Indexed
 * Job, its first pending indexes) in slow-start batches once the failure backoff has passed,
 * deletes surplus or duplicate ones, and records what it expects the informer to show. A first
 * failed request is left in {@link JobSyncContext#error}. Thread-safe; a sync owns its context.
 */
final class JobPodManager {
  private static final Logger LOG = LoggerFactory.getLogger(JobPodManager.class);

  private final JobApi api;
  private final JobEvents events;
  private final Expectations expectations;
  private final WorkQueue<String> queue;
  private final Clock clock;

  JobPodManager(JobApi api, JobEvents events, Expectations expectations, WorkQueue<String> queue,
      Clock clock) {
    this.api = api;
    this.events = events;
    this.expectations = expectations;
    this.queue = queue;
    this.clock = clock;
  }

  /** kube's {@code deleteActivePods}: deletions keeping finalizers; {ready, all} deleted. */
  long[] deleteActivePods(JobSyncContext ctx, List<MapValue> active) {
    MapValue job = ctx.job;
    long[] out = new long[] {0, active.size()};
    for (MapValue pod : active) {
      try {
        api.deletePod(job, pod);
      } catch (NotFoundException e) {
        // gone already: counts as deleted
      } catch (StatusException e) {
        out[1]--;
        if (ctx.error == null) {
          ctx.error = e;
        }
        LOG.warn("deleting Pod {} of Job {} failed: {}", Pods.key(pod), Pods.key(job),
            e.getMessage());
      }
      if (Pods.ready(pod)) {
        out[0]++;
      }
    }
    return out;
  }

  /** kube's {@code deleteJobPods}: the finalizer removed first, then the delete. */
  long[] deleteJobPods(JobSyncContext ctx, String key, List<MapValue> victims) {
    MapValue job = ctx.job;
    long[] out = new long[] {0, victims.size()};
    for (MapValue pod : victims) {
      try {
        if (hasFinalizer(pod)) {
          api.removeFinalizer(pod);
        }
        api.deletePod(job, pod);
      } catch (StatusException e) {
        expectations.deletionObserved(key, Pods.key(pod));
        if (!(e instanceof NotFoundException)) {
          out[1]--;
          if (ctx.error == null) {
            ctx.error = e;
          }
        }
      }
      if (Pods.ready(pod)) {
        out[0]++;
      }
    }
    return out;
  }

  /** kube's {@code manageJob}: the active count after creating or deleting Pods. */
  long manageJob(String key, JobSyncContext ctx) {
    MapValue job = ctx.job;
    long active = ctx.activePods.size();
    long parallelism = Nested.integer(job, "spec", "parallelism");
    if (suspended(job)) {
      List<MapValue> victims = podsForRemoval(job, ctx.activePods, (int) active);
      expectations.expectDeletions(key, victims.stream().map(Pods::key).toList());
      long[] removed = deleteJobPods(ctx, key, victims);
      ctx.terminating += removed[1];
      ctx.ready -= removed[0];
      return active - removed[1];
    }
    long wantActive;
    if (!Nested.has(job, "spec", "completions")) {
      wantActive = ctx.succeeded > 0 ? active : parallelism;
    } else {
      wantActive = Math.max(0, Math.min(parallelism,
          Nested.integer(job, "spec", "completions") - ctx.succeeded));
    }
    long rmAtLeast = Math.max(0, active - wantActive);
    List<MapValue> victims = podsForRemoval(job, ctx.activePods, (int) rmAtLeast);
    if (victims.size() > JobController.MAX_POD_CREATE_DELETE_PER_SYNC) {
      victims = victims.subList(0, JobController.MAX_POD_CREATE_DELETE_PER_SYNC);
    }
    if (!victims.isEmpty()) {
      expectations.expectDeletions(key, victims.stream().map(Pods::key).toList());
      long[] removed = deleteJobPods(ctx, key, victims);
      ctx.terminating += removed[1];
      ctx.ready -= removed[0];
      return active - removed[1];
    }
    long terminating = onlyReplaceFailed(job) ? ctx.terminating : 0;
    long diff = wantActive - terminating - active;
    if (diff <= 0) {
      return active;
    }
    Instant now = clock.instant();
    boolean perIndex = hasBackoffLimitPerIndex(job);
    // with a backoff per index, each index waits for itself below
    Duration remaining = perIndex ? Duration.ZERO : ctx.newBackoff.remaining(now);
    if (remaining.compareTo(Duration.ZERO) > 0) {
      queue.addAt(key, now.plus(remaining));
      return 0;
    }
    diff = Math.min(diff, JobController.MAX_POD_CREATE_DELETE_PER_SYNC);
    List<Integer> indexes = new ArrayList<>();
    if (indexed(job)) {
      indexes = IndexedJobs.firstPendingIndexes(ctx, (int) diff,
          (int) Nested.integer(job, "spec", "completions"));
      if (perIndex) {
        IndexedJobs.Creation creation =
            IndexedJobs.creationInfo(indexes, ctx.podsWithDelayedDeletion, now);
        if (creation.delay().compareTo(Duration.ZERO) > 0) {
          queue.addAt(key, now.plus(creation.delay()));
          return 0;
        }
        indexes = creation.indexes();
      }
      diff = indexes.size();
    }
    int create = (int) diff;
    expectations.expectCreations(key, create);
    List<Integer> pending = new ArrayList<>(indexes);
    int created = 0;
    int attempted = 0;
    // kube's slow start: batches of 1, 2, 4, ... until a batch has a failure
    for (int batch = Math.min(create, 1); attempted < create;
        batch = Math.min(2 * batch, create - attempted)) {
      int failures = 0;
      for (int i = 0; i < batch; i++) {
        int index = pending.isEmpty() ? -1 : pending.remove(0);
        attempted++;
        try {
          Map<String, String> counts = perIndex && index >= 0
              ? IndexedJobs.failureCountAnnotations(job, ctx.podsWithDelayedDeletion.get(index))
              : Map.of();
          MapValue pod = api.createPod(job, index, counts);
          events.created(job, pod);
          created++;
        } catch (StatusException e) {
          if (e.status().causes().stream()
              .anyMatch(c -> c.type().equals("NamespaceTerminating"))) {
            created++;
            continue;
          }
          events.createFailed(job, e);
          expectations.creationObserved(key);
          failures++;
          if (ctx.error == null) {
            ctx.error = e;
          }
        }
      }
      if (failures > 0) {
        for (int i = attempted; i < create; i++) {
          expectations.creationObserved(key);
        }
        break;
      }
    }
    return active + created;
  }
}
