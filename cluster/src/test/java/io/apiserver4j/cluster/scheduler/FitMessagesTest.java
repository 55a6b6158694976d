/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler's unschedulable message: {@code FitError.Error()} in
 * pkg/scheduler/framework/types.go (histogram "count reason", sorted, joined by ", ", ended by
 * ".", then the PostFilter message after a space), the PostFilter messages joined by ", " with
 * DynamicResources' "no new claims to deallocate" first, and default preemption's "preemption: "
 * prefix with its per-Node verdicts. The whole form is what 1.34+ clusters print, e.g. "0/2
 * nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). no new claims to
 * deallocate, preemption: 0/2 nodes are available: 1 No preemption victims found for incoming
 * pod, 1 Preemption is not helpful for scheduling."
 */
class FitMessagesTest {
  // what Preemption answers in each case (PreemptionTest checks how it gets there)
  private static final String POST_FILTER_3 = "no new claims to deallocate, preemption: 0/3"
      + " nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption"
      + " victims found for incoming pod.";
  private static final String POST_FILTER_2 = "no new claims to deallocate, preemption: 0/2"
      + " nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is"
      + " not helpful for scheduling.";
  private static final String POST_FILTER_NEVER = "no new claims to deallocate, preemption:"
      + " not eligible due to preemptionPolicy=Never.";

  @Test
  void reasonsAreCountedSortedAndFollowedByThePreemptionVerdicts() {
    Map<String, Filters.Rejection> rejected = new LinkedHashMap<>();
    rejected.put("a", Filters.Rejection.unresolvable(Filters.ERR_TAINT));
    rejected.put("b", new Filters.Rejection(List.of("Insufficient cpu"), false));
    rejected.put("c", new Filters.Rejection(List.of("Insufficient cpu"), false));
    assertThat(FitMessages.fitError(3, rejected, POST_FILTER_3))
        .isEqualTo("0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient"
            + " cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1"
            + " Preemption is not helpful for scheduling, 2 No preemption victims found for"
            + " incoming pod.");
  }

  @Test
  void aNodeWithSeveralReasonsCountsEach() {
    Map<String, Filters.Rejection> rejected = new LinkedHashMap<>();
    rejected.put("a", new Filters.Rejection(List.of("Insufficient cpu", "Insufficient memory"),
        false));
    rejected.put("b", Filters.Rejection.unresolvable(Filters.ERR_AFFINITY));
    assertThat(FitMessages.fitError(2, rejected, POST_FILTER_2))
        .isEqualTo("0/2 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1"
            + " node(s) didn't match Pod's node affinity/selector. no new claims to deallocate,"
            + " preemption: 0/2 nodes are available: 1 No preemption victims found for incoming"
            + " pod, 1 Preemption is not helpful for scheduling.");
  }

  @Test
  void aPodThatNeverPreemptsSaysSo() {
    Map<String, Filters.Rejection> rejected = Map.of("a",
        new Filters.Rejection(List.of("Insufficient cpu"), false));
    assertThat(FitMessages.fitError(1, rejected, POST_FILTER_NEVER))
        .isEqualTo("0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate,"
            + " preemption: not eligible due to preemptionPolicy=Never.");
  }
}
