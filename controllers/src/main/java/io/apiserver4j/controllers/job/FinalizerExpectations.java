/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.controllers.internal.ControllerContext;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code uidTrackingExpectations}: per Job key, the UIDs of Pods whose tracking
 * finalizer the controller removed and whose update the informer has not shown yet, so that a
 * sync does not count them twice. Emptied by a controller reset. Thread-safe.
 */
final class FinalizerExpectations {
  private final Map<String, Set<String>> byJob = new HashMap<>();

  FinalizerExpectations(ControllerContext context) {
    context.forgetOnReset(byJob);
  }

  /** kube's {@code expectFinalizersRemoved}. */
  void expectRemoved(String key, Collection<String> uids) {
    synchronized (byJob) {
      byJob.computeIfAbsent(key, k -> new HashSet<>()).addAll(uids);
    }
  }

  /** kube's {@code finalizerRemovalObserved}. */
  void removalObserved(String key, String uid) {
    synchronized (byJob) {
      Set<String> uids = byJob.get(key);
      if (uids != null) {
        uids.remove(uid);
      }
    }
  }

  /** kube's {@code getExpectedUIDs}: a copy. */
  Set<String> expected(String key) {
    synchronized (byJob) {
      return Set.copyOf(byJob.getOrDefault(key, Set.of()));
    }
  }

  /** kube's {@code deleteExpectations}. */
  void delete(String key) {
    synchronized (byJob) {
      byJob.remove(key);
    }
  }
}
