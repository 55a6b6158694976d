/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podgc;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The choices of kube's {@code PodGCController} (pkg/controller/podgc/gc_controller.go) over
 * the cached Pods and Nodes, without the writes: which Pods each pass deletes, in kube's order.
 */
final class PodGcRules {
  /** kube's {@code v1.TaintNodeOutOfService}. */
  static final String OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";

  private PodGcRules() {}

  /** kube's {@code isPodTerminated}: a phase other than Pending, Running and Unknown. */
  static boolean terminated(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return !phase.equals("Pending") && !phase.equals("Running") && !phase.equals("Unknown");
  }

  /** kube's {@code isPodTerminating}: a deletion timestamp. */
  static boolean terminating(MapValue pod) {
    return Nested.has(pod, "metadata", "deletionTimestamp");
  }

  static String nodeName(MapValue pod) {
    return Nested.str(pod, "spec", "nodeName");
  }

  /**
   * kube's {@code gcTerminated}: the terminated Pods beyond {@code threshold}, evicted ones
   * first, then the oldest; none when {@code threshold} is 0 or less (the pass is off).
   */
  static List<MapValue> terminatedOverThreshold(List<MapValue> pods, int threshold) {
    if (threshold <= 0) {
      return List.of();
    }
    List<MapValue> terminated = new ArrayList<>(pods.stream().filter(PodGcRules::terminated)
        .toList());
    int deleteCount = terminated.size() - threshold;
    if (deleteCount <= 0) {
      return List.of();
    }
    terminated.sort(BY_EVICTION_AND_CREATION);
    return List.copyOf(terminated.subList(0, deleteCount));
  }

  /**
   * kube's {@code gcTerminating}: terminating Pods whose Node is known, not Ready and tainted
   * {@code node.kubernetes.io/out-of-service}, in kube's order; {@code node} looks a Node up by
   * name in the cache (Pods whose Node it does not find are skipped, as kube does).
   */
  static List<MapValue> terminatingOnOutOfServiceNodes(List<MapValue> pods,
      Function<String, Optional<MapValue>> node) {
    List<MapValue> out = new ArrayList<>();
    for (MapValue pod : pods) {
      if (!terminating(pod)) {
        continue;
      }
      Optional<MapValue> n = node.apply(nodeName(pod));
      if (n.isPresent() && !nodeReady(n.get()) && hasTaint(n.get(), OUT_OF_SERVICE)) {
        out.add(pod);
      }
    }
    out.sort(BY_EVICTION_AND_CREATION);
    return out;
  }

  /** kube's {@code gcUnscheduledTerminating}: terminating Pods bound to no Node. */
  static List<MapValue> unscheduledTerminating(List<MapValue> pods) {
    return pods.stream().filter(p -> terminating(p) && nodeName(p).isEmpty()).toList();
  }

  /** kube's {@code nodeutil.IsNodeReady}: the Ready condition is True. */
  static boolean nodeReady(MapValue node) {
    for (Value c : Nested.list(node, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return Nested.str(c, "status").equals("True");
      }
    }
    return false;
  }

  /** kube's {@code taints.TaintKeyExists}. */
  static boolean hasTaint(MapValue node, String key) {
    return Nested.list(node, "spec", "taints").stream()
        .anyMatch(t -> Nested.str(t, "key").equals(key));
  }

  /** kube's {@code eviction.PodIsEvicted}: Failed with reason Evicted. */
  static boolean evicted(MapValue pod) {
    return Nested.str(pod, "status", "phase").equals("Failed")
        && Nested.str(pod, "status", "reason").equals("Evicted");
  }

  /**
   * kube's {@code byEvictionAndCreationTimestamp}: evicted Pods first, then by creation time,
   * then by name.
   */
  static final Comparator<MapValue> BY_EVICTION_AND_CREATION =
      Comparator.<MapValue, Boolean>comparing(p -> !evicted(p))
          .thenComparing(p -> Meta.metaString(p, "creationTimestamp"),
              Comparator.comparing(PodGcRules::parseTime))
          .thenComparing(p -> Meta.metaString(p, "name"));

  private static java.time.Instant parseTime(String s) {
    if (s.isEmpty()) {
      return java.time.Instant.EPOCH;
    }
    try {
      return java.time.Instant.parse(s);
    } catch (java.time.format.DateTimeParseException e) {
      return java.time.Instant.EPOCH;
    }
  }
}
