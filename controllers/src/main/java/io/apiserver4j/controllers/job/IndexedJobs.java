/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import static io.apiserver4j.controllers.job.JobUtils.completionIndex;
import static io.apiserver4j.controllers.job.JobUtils.onlyReplaceFailed;
import static io.apiserver4j.controllers.job.JobUtils.terminating;

import io.apiserver4j.core.MapValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's index bookkeeping of Indexed Jobs (pkg/controller/job/indexed_job_utils.go): which
 * indexes succeeded and which are pending. Pure functions of their arguments.
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
    for (int candidate = 0; candidate < completions && out.size() < count; candidate++) {
      if (!nonPending.has(candidate)) {
        out.add(candidate);
      }
    }
    return out;
  }
}
