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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube-scheduler's PodTopologySpread scoring (pkg/scheduler/framework/plugins/podtopologyspread,
 * scoring.go) with the default plugin arguments ({@code defaultingType: System}). The
 * constraints are the Pod's {@code whenUnsatisfiable: ScheduleAnyway} ones; a Pod without any
 * constraint gets kube's system defaults ({@code kubernetes.io/hostname} maxSkew 3 and
 * {@code topology.kubernetes.io/zone} maxSkew 5) with the selector of its Services and
 * controlling ReplicationController, ReplicaSet or StatefulSet (kube's
 * {@code helper.DefaultSelector}, computed by the caller), none when that selector is empty.
 *
 * <p>Per constraint, a topology value counts the matching Pods (same namespace, not
 * terminating) of every Node of the cluster with that value that passes the constraint's node
 * inclusion policies; hostname constraints count the scored Node's own Pods. A scored Node gets
 * {@code round(sum(count * log(domains + 2) + maxSkew - 1))}, where {@code domains} is the number
 * of topology values among the feasible Nodes (their number for the hostname). Feasible Nodes
 * lacking one of the Pod's own constraints' keys are ignored (score 0); with the system
 * defaults a Node without a zone still spreads by hostname. Normalized, fewer matching Pods score
 * higher: {@code 100 * (max + min - score) / max}, 100 for all when {@code max} is 0. kube's
 * default profile weighs the plugin 2.
 */
final class PodTopologySpreadScore {
  /** The plugin's weight in kube's default profile (apis/config/v1/default_plugins.go). */
  static final long WEIGHT = 2;
  static final String HOSTNAME = "kubernetes.io/hostname";
  static final String ZONE = "topology.kubernetes.io/zone";
  private static final long MAX_NODE_SCORE = 100;

  private final MapValue pod;
  private final List<PodTopologySpread.Constraint> constraints;
  private final Set<String> ignored = new HashSet<>();
  /** Per constraint: matching Pods per topology value of the feasible Nodes. */
  private final List<Map<String, long[]>> counts = new ArrayList<>();
  private final double[] weights;

  /**
   * The PreScore state of {@code pod} over the cluster's {@code nodes}, of which
   * {@code feasible} passed the filters; {@code defaultSelector} is kube's
   * {@code DefaultSelector} of the Pod (empty when it has none).
   */
  PodTopologySpreadScore(MapValue pod, List<NodeInfo> nodes, List<NodeInfo> feasible,
      Optional<LabelSelector> defaultSelector) {
    this.pod = pod;
    boolean own = !Nested.list(pod, "spec", "topologySpreadConstraints").isEmpty();
    List<PodTopologySpread.Constraint> parsed;
    try {
      parsed = own ? scheduleAnyway(pod) : systemDefaults(defaultSelector);
    } catch (IllegalArgumentException e) {
      // kube-apiserver validates selectors; one that does not parse scores nothing
      parsed = List.of();
    }
    this.constraints = parsed;
    this.weights = new double[constraints.size()];
    if (constraints.isEmpty()) {
      return;
    }
    // only the Pod's own constraints need every key: a Node without a zone spreads by hostname
    boolean requireAllTopologies = own;
    int[] domains = new int[constraints.size()];
    for (int i = 0; i < constraints.size(); i++) {
      counts.add(new HashMap<>());
    }
    for (NodeInfo n : feasible) {
      Map<String, String> labels = Meta.labels(n.node);
      if (requireAllTopologies && !hasAllKeys(labels)) {
        ignored.add(n.name);
        continue;
      }
      for (int i = 0; i < constraints.size(); i++) {
        String key = constraints.get(i).topologyKey();
        if (key.equals(HOSTNAME)) {
          continue;
        }
        if (counts.get(i).putIfAbsent(labels.getOrDefault(key, ""), new long[1]) == null) {
          domains[i]++;
        }
      }
    }
    for (int i = 0; i < constraints.size(); i++) {
      int size = constraints.get(i).topologyKey().equals(HOSTNAME)
          ? feasible.size() - ignored.size() : domains[i];
      weights[i] = Math.log(size + 2);
    }
    String namespace = Meta.metaString(pod, "namespace");
    for (NodeInfo n : nodes) {
      Map<String, String> labels = Meta.labels(n.node);
      if (requireAllTopologies && !hasAllKeys(labels)) {
        continue;
      }
      for (int i = 0; i < constraints.size(); i++) {
        PodTopologySpread.Constraint c = constraints.get(i);
        if (c.honorNodeAffinity() && Filters.nodeAffinity(pod, n.node).isPresent()
            || c.honorTaints() && Filters.taintToleration(pod, n.node).isPresent()) {
          continue;
        }
        long[] count = counts.get(i).get(labels.getOrDefault(c.topologyKey(), ""));
        if (count != null) {
          count[0] += count(n, c.selector(), namespace);
        }
      }
    }
  }

  /** Whether the Pod has no constraint to score with (kube's PreScore {@code Skip}). */
  boolean skip() {
    return constraints.isEmpty();
  }

  private boolean hasAllKeys(Map<String, String> labels) {
    for (PodTopologySpread.Constraint c : constraints) {
      if (!labels.containsKey(c.topologyKey())) {
        return false;
      }
    }
    return true;
  }

  /** What {@link #count} counted on a Node: the Pods of a namespace a selector matches. */
  private record Matching(LabelSelector selector, String namespace) {}

  /**
   * kube's {@code countPodsMatchSelector}: absent selectors (labels.Nothing) count nothing.
   * Counted once per Node info (the scheduler reuses the infos of unchanged Nodes), since the
   * Pods of one owner, scheduled one after the other, ask the same question of every Node.
   */
  private static long count(NodeInfo n, Optional<LabelSelector> selector, String namespace) {
    if (selector.isEmpty()) {
      return 0;
    }
    return n.memo(new Matching(selector.get(), namespace),
        () -> countNow(n, selector.get(), namespace));
  }

  private static long countNow(NodeInfo n, LabelSelector selector, String namespace) {
    long count = 0;
    for (MapValue p : n.podList) {
      // the selector first: it reads the labels in place and rejects most Pods
      if (selector.matches(p) && Meta.metaString(p, "namespace").equals(namespace)
          && !Meta.hasMeta(p, "deletionTimestamp")) {
        count++;
      }
    }
    return count;
  }

  /** kube's {@code Score}: the raw score of one feasible Node. */
  private long score(NodeInfo n) {
    if (ignored.contains(n.name)) {
      return 0;
    }
    Map<String, String> labels = Meta.labels(n.node);
    String namespace = Meta.metaString(pod, "namespace");
    double score = 0;
    for (int i = 0; i < constraints.size(); i++) {
      PodTopologySpread.Constraint c = constraints.get(i);
      String value = labels.get(c.topologyKey());
      if (value == null) {
        continue;
      }
      long count;
      if (c.topologyKey().equals(HOSTNAME)) {
        count = count(n, c.selector(), namespace);
      } else {
        long[] domain = counts.get(i).get(value);
        count = domain == null ? 0 : domain[0];
      }
      score += count * weights[i] + (c.maxSkew() - 1);
    }
    return Math.round(score);
  }

  /** kube's {@code NormalizeScore}: the score (0..100) of each of {@code feasible}, by name. */
  Map<String, Long> normalized(List<NodeInfo> feasible) {
    Map<String, Long> raw = new LinkedHashMap<>();
    long min = Long.MAX_VALUE;
    long max = 0;
    for (NodeInfo n : feasible) {
      long s = score(n);
      raw.put(n.name, s);
      if (!ignored.contains(n.name)) {
        min = Math.min(min, s);
        max = Math.max(max, s);
      }
    }
    Map<String, Long> out = new LinkedHashMap<>();
    for (Map.Entry<String, Long> e : raw.entrySet()) {
      long s;
      if (ignored.contains(e.getKey())) {
        s = 0;
      } else if (max == 0) {
        s = MAX_NODE_SCORE;
      } else {
        s = MAX_NODE_SCORE * (max + min - e.getValue()) / max;
      }
      out.put(e.getKey(), s);
    }
    return out;
  }

  /** The Pod's {@code ScheduleAnyway} constraints, with kube's defaults and matchLabelKeys. */
  private static List<PodTopologySpread.Constraint> scheduleAnyway(MapValue pod) {
    List<PodTopologySpread.Constraint> out = new ArrayList<>();
    for (Value c : Nested.list(pod, "spec", "topologySpreadConstraints")) {
      if (Nested.str(c, "whenUnsatisfiable").equals("ScheduleAnyway")) {
        out.add(PodTopologySpread.constraint(pod, c));
      }
    }
    return out;
  }

  /**
   * kube's {@code systemDefaultConstraints} (plugin.go), in its order, with
   * {@code selector}; none when the selector has no requirement.
   */
  private static List<PodTopologySpread.Constraint> systemDefaults(
      Optional<LabelSelector> selector) {
    if (selector.isEmpty() || selector.get().requirements().isEmpty()) {
      return List.of();
    }
    return List.of(
        new PodTopologySpread.Constraint(3, HOSTNAME, selector, 1, true, false),
        new PodTopologySpread.Constraint(5, ZONE, selector, 1, true, false));
  }
}
