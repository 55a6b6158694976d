/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

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
import java.util.Map;
import java.util.Optional;

/**
 * kube's {@code ActivePodsWithRanks} order (pkg/controller/controller_utils.go), with the
 * {@code PodDeletionCost} and {@code LogarithmicScaleDown} features on as in 1.36: the Pods a
 * scale-down deletes first come first. Each Pod carries a rank, the number of related active
 * Pods on its node.
 */
final class ActivePodsWithRanks {
  static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

  /** A Pod and its rank. */
  record Ranked(MapValue pod, int rank) {}

  private ActivePodsWithRanks() {}

  /**
   * kube's {@code getPodsToDelete}: the first {@code diff} of {@code pods} in deletion order,
   * ranking each by the active Pods of {@code related} on its node; unsorted when all go.
   */
  static List<MapValue> podsToDelete(List<MapValue> pods, List<MapValue> related, int diff,
      Instant now) {
    if (diff >= pods.size()) {
      return List.copyOf(pods);
    }
    Map<String, Integer> onNode = new java.util.HashMap<>();
    for (MapValue p : related) {
      if (Pods.active(p)) {
        onNode.merge(Nested.str(p, "spec", "nodeName"), 1, Integer::sum);
      }
    }
    List<Ranked> ranked = new ArrayList<>();
    for (MapValue p : pods) {
      ranked.add(new Ranked(p, onNode.getOrDefault(Nested.str(p, "spec", "nodeName"), 0)));
    }
    ranked.sort(order(now));
    return ranked.subList(0, diff).stream().map(Ranked::pod).toList();
  }

  /** The order, earlier to delete first, at time {@code now} of the server clock. */
  static Comparator<Ranked> order(Instant now) {
    return (a, b) -> less(a, b, now) ? -1 : less(b, a, now) ? 1 : 0;
  }

  private static boolean less(Ranked a, Ranked b, Instant now) {
    MapValue i = a.pod();
    MapValue j = b.pod();
    String nodeI = Nested.str(i, "spec", "nodeName");
    String nodeJ = Nested.str(j, "spec", "nodeName");
    if (!nodeI.equals(nodeJ) && (nodeI.isEmpty() || nodeJ.isEmpty())) {
      return nodeI.isEmpty();
    }
    int phaseI = phaseOrdinal(i);
    int phaseJ = phaseOrdinal(j);
    if (phaseI != phaseJ) {
      return phaseI < phaseJ;
    }
    boolean readyI = Pods.ready(i);
    boolean readyJ = Pods.ready(j);
    if (readyI != readyJ) {
      return !readyI;
    }
    int costI = deletionCost(i);
    int costJ = deletionCost(j);
    if (costI != costJ) {
      return costI < costJ;
    }
    if (a.rank() != b.rank()) {
      return a.rank() > b.rank();
    }
    if (readyI) {
      Optional<Instant> ti = Pods.readySince(i);
      Optional<Instant> tj = Pods.readySince(j);
      if (!ti.equals(tj)) {
        return newer(i, j, ti, tj, now);
      }
    }
    long restartsI = maxRestarts(i);
    long restartsJ = maxRestarts(j);
    if (restartsI != restartsJ) {
      return restartsI > restartsJ;
    }
    Optional<Instant> ci = Pods.time(i, "metadata", "creationTimestamp");
    Optional<Instant> cj = Pods.time(j, "metadata", "creationTimestamp");
    if (!ci.equals(cj)) {
      return newer(i, j, ci, cj, now);
    }
    return false;
  }

  /**
   * Whether {@code ti} sorts first: a missing time first, then the more recent one, compared on
   * a base-2 logarithmic scale of the age with ties broken by UID.
   */
  private static boolean newer(MapValue i, MapValue j, Optional<Instant> ti,
      Optional<Instant> tj, Instant now) {
    if (ti.isEmpty() || tj.isEmpty()) {
      return ti.isEmpty();
    }
    int diff = logRank(ti.get(), now) - logRank(tj.get(), now);
    if (diff == 0) {
      return Meta.metaString(i, "uid").compareTo(Meta.metaString(j, "uid")) < 0;
    }
    return diff < 0;
  }

  /** The integer base-2 logarithm of the age in nanoseconds; -1 for no age. */
  static int logRank(Instant t, Instant now) {
    Duration d = Duration.between(t, now);
    if (d.isNegative() || d.isZero()) {
      return -1;
    }
    long nanos = d.getSeconds() >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : d.toNanos();
    return 63 - Long.numberOfLeadingZeros(nanos);
  }

  /** kube: Pending 0, Unknown 1, Running 2; any other phase counts as Pending. */
  private static int phaseOrdinal(MapValue pod) {
    return switch (Nested.str(pod, "status", "phase")) {
      case "Unknown" -> 1;
      case "Running" -> 2;
      default -> 0;
    };
  }

  /** The deletion cost annotation; absent or not a 32-bit integer counts as 0, as kube. */
  static int deletionCost(MapValue pod) {
    String v = Meta.annotations(pod).get(DELETION_COST);
    if (v == null) {
      return 0;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static long maxRestarts(MapValue pod) {
    long max = 0;
    for (Value c : Nested.list(pod, "status", "containerStatuses")) {
      max = Math.max(max, Nested.integer(c, "restartCount"));
    }
    return max;
  }
}
