/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one sync of a Job knows: kube's {@code syncJobCtx}. Not thread-safe: one sync owns it,
 * and the parts of the controller it passes through fill it in turn.
 */
final class JobSyncContext {
  MapValue job;
  JobStatus status;
  List<MapValue> pods;
  List<MapValue> activePods;
  long ready;
  long terminating;
  long succeeded;
  long failed;
  Set<String> uncountedSucceeded;
  Set<String> uncountedFailed;
  Set<String> expectedRmFinalizers;
  Backoff newBackoff;
  Intervals prevSucceededIndexes = Intervals.EMPTY;
  Intervals succeededIndexes = Intervals.EMPTY;
  /** kube's {@code failedIndexes}: null unless the Job has {@code backoffLimitPerIndex}. */
  Intervals failedIndexes;
  /** kube's {@code podsWithDelayedDeletionPerIndex}, by completion index. */
  Map<Integer, MapValue> podsWithDelayedDeletion = Map.of();
  /** kube's {@code finishedCondition}, null while the Job is not finishing. */
  MapValue finishedCondition;
  /** The first failed Pod creation or deletion of this sync. */
  StatusException error;
}
