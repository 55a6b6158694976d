/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The filter phase of one scheduling cycle for one Pod over one snapshot, in the order of
 * kube's default profile: the per-Node {@link Filters}, then {@link PodTopologySpread}, then
 * {@link InterPodAffinity}, whose PreFilter states are computed once here. Pods nominated to a
 * Node with at least the Pod's priority count there for the per-Node filters (kube's
 * {@code RunFilterPluginsWithNominatedPods}, reduced to its resource and port part).
 */
final class SchedulingCycle {
  private final MapValue pod;
  private final List<NodeInfo> nodes;
  private final Function<String, Map<String, String>> namespaceLabels;
  private final Map<String, List<MapValue>> nominated;
  private final Optional<Filters.Rejection> preFilterFailure;
  private final PodTopologySpread spread;
  private final InterPodAffinity affinity;

  /**
   * A cycle for {@code pod} over {@code nodes}; {@code nominated} lists by Node the other
   * Pods nominated there with at least its priority.
   */
  SchedulingCycle(MapValue pod, List<NodeInfo> nodes,
      Function<String, Map<String, String>> namespaceLabels,
      Map<String, List<MapValue>> nominated) {
    this.pod = pod;
    this.nodes = nodes;
    this.namespaceLabels = namespaceLabels;
    this.nominated = nominated;
    PodTopologySpread s = null;
    InterPodAffinity a = null;
    Optional<Filters.Rejection> failure = Optional.empty();
    try {
      s = new PodTopologySpread(pod, nodes);
      a = new InterPodAffinity(pod, nodes, namespaceLabels);
    } catch (IllegalArgumentException e) {
      // kube's PreFilter fails with UnschedulableAndUnresolvable "parsing pod: ..."
      failure = Optional.of(Filters.Rejection.unresolvable("parsing pod: " + e.getMessage()));
    }
    this.spread = s;
    this.affinity = a;
    this.preFilterFailure = failure;
  }

  MapValue pod() {
    return pod;
  }

  List<NodeInfo> nodes() {
    return nodes;
  }

  /** The same cycle over other Node infos (preemption's what-if), nominations kept. */
  SchedulingCycle over(List<NodeInfo> otherNodes) {
    return new SchedulingCycle(pod, otherNodes, namespaceLabels, nominated);
  }

  /** The verdict on {@code node}: empty when the Pod fits. */
  Optional<Filters.Rejection> filter(NodeInfo node) {
    if (preFilterFailure.isPresent()) {
      return preFilterFailure;
    }
    List<MapValue> others = nominated.getOrDefault(node.name, List.of()).stream()
        .filter(p -> !Meta.metaString(p, "uid").equals(Meta.metaString(pod, "uid")))
        .toList();
    Optional<Filters.Rejection> r = Filters.run(pod,
        others.isEmpty() ? node : node.with(List.of(), others));
    if (r.isEmpty() && !spread.skip()) {
      r = spread.filter(node);
    }
    if (r.isEmpty() && !affinity.skip()) {
      r = affinity.filter(node);
    }
    return r;
  }
}
