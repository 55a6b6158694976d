/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.job;

import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.Comparator;

/**
 * kube's {@code controller.ActivePods} order, the Pods to remove first: unassigned before
 * assigned, Pending before Unknown before Running, not ready before ready, ready for less time
 * first, more restarts first, newer first.
 */
final class ActivePodsOrder implements Comparator<MapValue> {
  static final ActivePodsOrder INSTANCE = new ActivePodsOrder();

  private ActivePodsOrder() {}

  @Override
  public int compare(MapValue a, MapValue b) {
    boolean aAssigned = !Nested.str(a, "spec", "nodeName").isEmpty();
    boolean bAssigned = !Nested.str(b, "spec", "nodeName").isEmpty();
    if (aAssigned != bAssigned) {
      return aAssigned ? 1 : -1;
    }
    int pa = phaseRank(a);
    int pb = phaseRank(b);
    if (pa != pb) {
      return Integer.compare(pa, pb);
    }
    boolean ra = Pods.ready(a);
    boolean rb = Pods.ready(b);
    if (ra != rb) {
      return ra ? 1 : -1;
    }
    if (ra) {
      Instant ta = Pods.readySince(a).orElse(Instant.EPOCH);
      Instant tb = Pods.readySince(b).orElse(Instant.EPOCH);
      if (!ta.equals(tb)) {
        // ready for less time (a later transition) goes first
        return tb.compareTo(ta);
      }
    }
    long ca = restarts(a);
    long cb = restarts(b);
    if (ca != cb) {
      return Long.compare(cb, ca);
    }
    Instant ta = Pods.time(a, "metadata", "creationTimestamp").orElse(Instant.EPOCH);
    Instant tb = Pods.time(b, "metadata", "creationTimestamp").orElse(Instant.EPOCH);
    return tb.compareTo(ta);
  }

  private static int phaseRank(MapValue pod) {
    return switch (Nested.str(pod, "status", "phase")) {
      case "", "Pending" -> 0;
      case "Unknown" -> 1;
      case "Running" -> 2;
      default -> 3;
    };
  }

  private static long restarts(MapValue pod) {
    long max = 0;
    for (Value s : Nested.list(pod, "status", "containerStatuses")) {
      max = Math.max(max, Nested.integer(s, "restartCount"));
    }
    return max;
  }
}
