/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-scheduler's PodTopologySpread filter (pkg/scheduler/framework/plugins/podtopologyspread,
 * filtering.go) for one Pod over one snapshot. Only the Pod's own
 * {@code whenUnsatisfiable: DoNotSchedule} constraints filter: kube's system default
 * constraints (zone maxSkew 5, hostname maxSkew 3) are {@code ScheduleAnyway} and only score
 * (see {@link PodTopologySpreadScore}). A Node counts when it has every
 * constraint's topology key; per constraint it counts when it passes the Pod's required node
 * affinity ({@code nodeAffinityPolicy: Honor}, the default) and, with
 * {@code nodeTaintsPolicy: Honor}, tolerates its NoSchedule and NoExecute taints. A Pod counts
 * when it is in the Pod's namespace, not terminating, and matches the constraint's selector
 * (with {@code matchLabelKeys} merged); an empty selector counts nothing.
 */
final class PodTopologySpread {
  /** kube's {@code ErrReasonConstraintsNotMatch}. */
  static final String ERR_CONSTRAINTS = "node(s) didn't match pod topology spread constraints";
  /** kube's {@code ErrReasonNodeLabelNotMatch}. */
  static final String ERR_MISSING_LABEL = ERR_CONSTRAINTS + " (missing required label)";

  /** A {@code DoNotSchedule} constraint, parsed as kube's {@code topologySpreadConstraint}. */
  record Constraint(long maxSkew, String topologyKey, Optional<LabelSelector> selector,
      long minDomains, boolean honorNodeAffinity, boolean honorTaints) {}

  private final MapValue pod;
  private final List<Constraint> constraints;
  /** Per constraint: matching Pods per topology value of the eligible Nodes. */
  private final List<Map<String, Long>> matchNum = new ArrayList<>();

  /**
   * The PreFilter state of {@code pod} over {@code nodes}.
   *
   * @throws IllegalArgumentException when a constraint's selector does not parse
   */
  PodTopologySpread(MapValue pod, List<NodeInfo> nodes) {
    this.pod = pod;
    this.constraints = constraints(pod);
    for (int i = 0; i < constraints.size(); i++) {
      matchNum.add(new HashMap<>());
    }
    if (constraints.isEmpty()) {
      return;
    }
    String namespace = Meta.metaString(pod, "namespace");
    for (NodeInfo n : nodes) {
      Map<String, String> labels = Meta.labels(n.node);
      boolean allKeys = true;
      for (Constraint c : constraints) {
        allKeys &= labels.containsKey(c.topologyKey());
      }
      if (!allKeys) {
        continue;
      }
      for (int i = 0; i < constraints.size(); i++) {
        Constraint c = constraints.get(i);
        if (c.honorNodeAffinity() && Filters.nodeAffinity(pod, n.node).isPresent()
            || c.honorTaints() && Filters.taintToleration(pod, n.node).isPresent()) {
          continue;
        }
        matchNum.get(i).merge(labels.get(c.topologyKey()), count(n, c, namespace), Long::sum);
      }
    }
  }

  /** Whether the Pod has no constraint to filter with (kube's PreFilter {@code Skip}). */
  boolean skip() {
    return constraints.isEmpty();
  }

  private static long count(NodeInfo n, Constraint c, String namespace) {
    if (c.selector().isEmpty() || c.selector().get().isEverything()) {
      // kube's countPodsMatchSelector: an empty selector counts nothing
      return 0;
    }
    long count = 0;
    for (MapValue p : n.podList) {
      if (Meta.hasMeta(p, "deletionTimestamp")
          || !Meta.metaString(p, "namespace").equals(namespace)) {
        continue;
      }
      if (c.selector().get().matches(Meta.labels(p))) {
        count++;
      }
    }
    return count;
  }

  /**
   * The Filter verdict on {@code node}: for each constraint, the Node's topology value must
   * exist and {@code matching + self - global minimum} stay within {@code maxSkew}; the
   * minimum is 0 while fewer than {@code minDomains} domains exist.
   */
  Optional<Filters.Rejection> filter(NodeInfo node) {
    Map<String, String> labels = Meta.labels(node.node);
    Map<String, String> podLabels = Meta.labels(pod);
    for (int i = 0; i < constraints.size(); i++) {
      Constraint c = constraints.get(i);
      String value = labels.get(c.topologyKey());
      if (value == null) {
        return Optional.of(Filters.Rejection.unresolvable(ERR_MISSING_LABEL));
      }
      Map<String, Long> domains = matchNum.get(i);
      long min = domains.values().stream().mapToLong(Long::longValue).min()
          .orElse(Integer.MAX_VALUE);
      if (domains.size() < c.minDomains()) {
        min = 0;
      }
      long self = c.selector().map(s -> s.matches(podLabels)).orElse(false) ? 1 : 0;
      long skew = domains.getOrDefault(value, 0L) + self - min;
      if (skew > c.maxSkew()) {
        return Optional.of(new Filters.Rejection(List.of(ERR_CONSTRAINTS), false));
      }
    }
    return Optional.empty();
  }

  /**
   * The Pod's {@code DoNotSchedule} constraints with kube's defaults (minDomains 1,
   * nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore) and {@code matchLabelKeys} merged.
   */
  static List<Constraint> constraints(MapValue pod) {
    List<Constraint> out = new ArrayList<>();
    for (Value c : Nested.list(pod, "spec", "topologySpreadConstraints")) {
      if (Nested.str(c, "whenUnsatisfiable").equals("DoNotSchedule")) {
        out.add(constraint(pod, c));
      }
    }
    return out;
  }

  /**
   * One of {@code pod}'s {@code topologySpreadConstraints} as kube's
   * {@code filterTopologySpreadConstraints} parses it.
   *
   * @throws IllegalArgumentException when its selector does not parse
   */
  static Constraint constraint(MapValue pod, Value c) {
    Optional<LabelSelector> selector = PodSelectors.withLabelKeys(
        PodSelectors.of(Nested.getOrNull(c, "labelSelector")), pod,
        Nested.list(c, "matchLabelKeys"), List.of());
    long minDomains = Nested.has(c, "minDomains") ? Nested.integer(c, "minDomains") : 1;
    return new Constraint(Nested.integer(c, "maxSkew"), Nested.str(c, "topologyKey"),
        selector, minDomains, !Nested.str(c, "nodeAffinityPolicy").equals("Ignore"),
        Nested.str(c, "nodeTaintsPolicy").equals("Honor"));
  }
}
