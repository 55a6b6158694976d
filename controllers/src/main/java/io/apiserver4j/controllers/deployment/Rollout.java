/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.deployment;

import static io.apiserver4j.controllers.deployment.DeploymentUtil.replicas;

import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.SyncError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The scaling decisions of kube's deployment controller (rolling.go, recreate.go and the
 * proportional {@code scale} of sync.go), apart from the writes: each decision goes to a
 * {@link Scaler}, which the controller backs with ReplicaSet updates and tests with a record.
 */
final class Rollout {
  private Rollout() {}

  /** What a scale did: whether the size changed, and the set as it now is. */
  record Scaled(boolean scaled, MapValue rs) {}

  /** Writes a ReplicaSet's new size. */
  interface Scaler {
    /**
     * kube's {@code scaleReplicaSetAndRecordEvent}: nothing when the size is {@code newScale}
     * already.
     */
    Scaled scale(MapValue rs, long newScale);

    /**
     * kube's {@code scaleReplicaSet}: also when only the replicas annotations are out of date.
     */
    Scaled scaleAndAnnotate(MapValue rs, long newScale);
  }

  /** kube's {@code reconcileNewReplicaSet}: scales the new set up within maxSurge. */
  static boolean reconcileNewReplicaSet(MapValue d, List<MapValue> all, MapValue newRS,
      Scaler scaler) {
    if (replicas(newRS) == replicas(d)) {
      return false;
    }
    if (replicas(newRS) > replicas(d)) {
      return scaler.scale(newRS, replicas(d)).scaled();
    }
    return scaler.scale(newRS, DeploymentUtil.newRSNewReplicas(d, all, newRS)).scaled();
  }

  /** kube's {@code reconcileOldReplicaSets}: scales old sets down within maxUnavailable. */
  static boolean reconcileOldReplicaSets(MapValue d, List<MapValue> all, List<MapValue> oldRSs,
      MapValue newRS, Scaler scaler) {
    long oldPods = DeploymentUtil.replicaCount(oldRSs);
    if (oldPods == 0) {
      return false;
    }
    long allPods = DeploymentUtil.replicaCount(all);
    long minAvailable = replicas(d) - DeploymentUtil.maxUnavailable(d);
    long newUnavailable = replicas(newRS) - Nested.integer(newRS, "status", "availableReplicas");
    long maxScaledDown = allPods - minAvailable - newUnavailable;
    if (maxScaledDown <= 0) {
      return false;
    }
    // unhealthy replicas first: they would block the rollout
    List<MapValue> old = new ArrayList<>(oldRSs);
    long cleaned = cleanupUnhealthyReplicas(old, maxScaledDown, scaler);
    List<MapValue> allAfter = new ArrayList<>(old);
    allAfter.add(newRS);
    long scaledDown = scaleDownOldReplicaSetsForRollingUpdate(d, allAfter, old, scaler);
    return cleaned + scaledDown > 0;
  }

  /**
   * kube's {@code cleanupUnhealthyReplicas}: sorts {@code oldRSs} oldest first and replaces each
   * set it scales by its new state; how many replicas went.
   */
  static long cleanupUnhealthyReplicas(List<MapValue> oldRSs, long maxCleanup, Scaler scaler) {
    oldRSs.sort(DeploymentUtil.BY_CREATION);
    long total = 0;
    for (int i = 0; i < oldRSs.size(); i++) {
      MapValue rs = oldRSs.get(i);
      if (total >= maxCleanup) {
        break;
      }
      long available = Nested.integer(rs, "status", "availableReplicas");
      if (replicas(rs) == 0 || replicas(rs) == available) {
        continue;
      }
      long count = Math.min(maxCleanup - total, replicas(rs) - available);
      long newReplicas = replicas(rs) - count;
      if (newReplicas > replicas(rs)) {
        throw new SyncError("when cleaning up unhealthy replicas, got invalid "
            + "request to scale down " + Pods.key(rs) + " " + replicas(rs) + " -> "
            + newReplicas);
      }
      oldRSs.set(i, scaler.scale(rs, newReplicas).rs());
      total += count;
    }
    return total;
  }

  /** kube's {@code scaleDownOldReplicaSetsForRollingUpdate}: oldest first, to minAvailable. */
  static long scaleDownOldReplicaSetsForRollingUpdate(MapValue d, List<MapValue> all,
      List<MapValue> oldRSs, Scaler scaler) {
    long minAvailable = replicas(d) - DeploymentUtil.maxUnavailable(d);
    long available = DeploymentUtil.statusCount(all, "availableReplicas");
    if (available <= minAvailable) {
      return 0;
    }
    List<MapValue> sorted = new ArrayList<>(oldRSs);
    sorted.sort(DeploymentUtil.BY_CREATION);
    long total = 0;
    long toScaleDown = available - minAvailable;
    for (MapValue rs : sorted) {
      if (total >= toScaleDown) {
        break;
      }
      if (replicas(rs) == 0) {
        continue;
      }
      long count = Math.min(replicas(rs), toScaleDown - total);
      long newReplicas = replicas(rs) - count;
      if (newReplicas > replicas(rs)) {
        throw new SyncError("when scaling down old replica set, got invalid "
            + "request to scale down " + Pods.key(rs) + " " + replicas(rs) + " -> "
            + newReplicas);
      }
      scaler.scale(rs, newReplicas);
      total += count;
    }
    return total;
  }

  /** kube's {@code scale}: proportional scaling of the active sets. */
  static void scale(MapValue d, MapValue newRS, List<MapValue> oldRSs, Scaler scaler) {
    Optional<MapValue> activeOrLatest = DeploymentUtil.findActiveOrLatest(newRS, oldRSs);
    if (activeOrLatest.isPresent()) {
      if (replicas(activeOrLatest.get()) != replicas(d)) {
        scaler.scale(activeOrLatest.get(), replicas(d));
      }
      return;
    }
    if (DeploymentUtil.isSaturated(d, newRS)) {
      for (MapValue old : DeploymentUtil.active(oldRSs)) {
        scaler.scale(old, 0);
      }
      return;
    }
    if (!DeploymentUtil.isRollingUpdate(d)) {
      return;
    }
    List<MapValue> all = new ArrayList<>(oldRSs);
    if (newRS != null) {
      all.add(newRS);
    }
    all = new ArrayList<>(DeploymentUtil.active(all));
    long allowedSize = replicas(d) > 0 ? replicas(d) + DeploymentUtil.maxSurge(d) : 0;
    long toAdd = allowedSize - DeploymentUtil.replicaCount(all);
    // equal sizes: newer sets grow first, older sets shrink first
    if (toAdd > 0) {
      all.sort(DeploymentUtil.BY_SIZE_NEWER);
    } else if (toAdd < 0) {
      all.sort(DeploymentUtil.BY_SIZE_OLDER);
    }
    long added = 0;
    Map<String, Long> sizes = new HashMap<>();
    for (MapValue rs : all) {
      long size = replicas(rs);
      if (toAdd != 0) {
        long proportion = DeploymentUtil.proportion(rs, d, toAdd, added);
        size += proportion;
        added += proportion;
      }
      sizes.put(Meta.metaString(rs, "name"), size);
    }
    for (int i = 0; i < all.size(); i++) {
      MapValue rs = all.get(i);
      String name = Meta.metaString(rs, "name");
      if (i == 0 && toAdd != 0) {
        // leftovers go to the largest set
        sizes.put(name, Math.max(0, sizes.get(name) + toAdd - added));
      }
      scaler.scaleAndAnnotate(rs, sizes.get(name));
    }
  }

  /**
   * The old sets kube's {@code cleanupDeployment} deletes: beyond revisionHistoryLimit, lowest
   * revisions first, and only those scaled to zero, observed and not being deleted.
   */
  static List<MapValue> toCleanUp(MapValue d, List<MapValue> oldRSs) {
    if (!DeploymentUtil.hasRevisionHistoryLimit(d)) {
      return List.of();
    }
    List<MapValue> cleanable = new ArrayList<>(oldRSs.stream()
        .filter(rs -> !Nested.has(rs, "metadata", "deletionTimestamp")).toList());
    long diff = cleanable.size() - Nested.integer(d, "spec", "revisionHistoryLimit");
    if (diff <= 0) {
      return List.of();
    }
    cleanable.sort(DeploymentUtil.BY_REVISION);
    List<MapValue> out = new ArrayList<>();
    for (int i = 0; i < diff; i++) {
      MapValue rs = cleanable.get(i);
      if (Nested.integer(rs, "status", "replicas") != 0 || replicas(rs) != 0
          || Meta.generation(rs) > Nested.integer(rs, "status", "observedGeneration")) {
        continue;
      }
      out.add(rs);
    }
    return out;
  }

  /** kube's {@code oldPodsRunning}: an old set has Pods, or a Pod of one is not finished. */
  static boolean oldPodsRunning(MapValue newRS, List<MapValue> oldRSs,
      Map<String, List<MapValue>> podMap) {
    if (DeploymentUtil.statusCount(oldRSs, "replicas") > 0) {
      return true;
    }
    String newUid = newRS == null ? null : Meta.metaString(newRS, "uid");
    for (Map.Entry<String, List<MapValue>> e : podMap.entrySet()) {
      if (e.getKey().equals(newUid)) {
        continue;
      }
      for (MapValue pod : e.getValue()) {
        String phase = Nested.str(pod, "status", "phase");
        if (!phase.equals("Failed") && !phase.equals("Succeeded")) {
          return true;
        }
      }
    }
    return false;
  }
}
