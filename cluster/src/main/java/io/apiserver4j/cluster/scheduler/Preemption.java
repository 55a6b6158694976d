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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * kube-scheduler's DefaultPreemption PostFilter (pkg/scheduler/framework/plugins/
 * defaultpreemption and pkg/scheduler/framework/preemption), evaluated on the snapshot of the
 * failed cycle, without side effects: whether the Pod may preempt, and either the Node and
 * victims to evict or the message of why not.
 *
 * <p>Per Node rejected as {@code Unschedulable} (not unresolvable): every Pod of lower priority
 * is removed; when the Pod still does not fit, the Node's verdict is the filters' reasons;
 * else the removed Pods are tried back one by one, most important first (higher priority,
 * then earlier start), those whose PodDisruptionBudget would be violated first, and those that
 * do not fit back are the victims. The Node is then picked as kube's
 * {@code pickOneNodeForPreemption}: fewest PDB violations, lowest highest victim priority,
 * lowest priority sum, fewest victims, latest start of the highest-priority victims, then the
 * first by name. kube samples candidates from a random offset; this evaluates every Node in
 * name order, so the choice is deterministic.
 */
final class Preemption {
  /** kube's message for a Pod waiting on its nominated Node's terminating victims. */
  static final String WAITING = "not eligible due to a terminating pod on the nominated node.";
  /** {@code DisruptionTarget} reason of preempted Pods. */
  static final String REASON = "PreemptionByScheduler";

  /** A Node where evicting {@code victims} lets the Pod fit. */
  record Candidate(String node, List<MapValue> victims, int pdbViolations) {}

  /** The outcome: a candidate, or none and the PostFilter message. */
  record Result(Optional<Candidate> candidate, String message) {}

  private Preemption() {}

  /**
   * Evaluates preemption for the Pod of {@code cycle}, whose filters rejected each Node as
   * {@code rejected} says; {@code pdbs} are the PodDisruptionBudgets of the cluster.
   */
  static Result evaluate(SchedulingCycle cycle, Map<String, Filters.Rejection> rejected,
      List<MapValue> pdbs) {
    MapValue pod = cycle.pod();
    String claims = Nested.list(pod, "spec", "resourceClaims").isEmpty()
        ? FitMessages.NO_CLAIMS + ", " : "";
    Optional<String> ineligible = ineligible(pod, cycle.nodes(), rejected);
    if (ineligible.isPresent()) {
      return new Result(Optional.empty(), claims + "preemption: " + ineligible.get());
    }
    Map<String, Filters.Rejection> verdicts = new TreeMap<>();
    List<Candidate> candidates = new ArrayList<>();
    for (NodeInfo n : cycle.nodes()) {
      Filters.Rejection r = rejected.get(n.name);
      if (r == null || r.unresolvable()) {
        verdicts.put(n.name, Filters.Rejection.unresolvable(FitMessages.NOT_HELPFUL));
        continue;
      }
      Object verdict = selectVictims(cycle, n, pdbs);
      if (verdict instanceof Candidate c) {
        candidates.add(c);
      } else {
        verdicts.put(n.name, (Filters.Rejection) verdict);
      }
    }
    if (candidates.isEmpty()) {
      return new Result(Optional.empty(), claims + "preemption: "
          + FitMessages.fitError(cycle.nodes().size(), verdicts, ""));
    }
    return new Result(Optional.of(pick(candidates)), "");
  }

  /** kube's {@code PodEligibleToPreemptOthers}: the reason the Pod may not preempt. */
  private static Optional<String> ineligible(MapValue pod, List<NodeInfo> nodes,
      Map<String, Filters.Rejection> rejected) {
    if (Nested.str(pod, "spec", "preemptionPolicy").equals("Never")) {
      return Optional.of(FitMessages.NOT_ELIGIBLE);
    }
    String nominated = Nested.str(pod, "status", "nominatedNodeName");
    if (nominated.isEmpty()) {
      return Optional.empty();
    }
    Filters.Rejection r = rejected.get(nominated);
    if (r != null && r.unresolvable()) {
      return Optional.empty();
    }
    long priority = PodSelectors.priority(pod);
    for (NodeInfo n : nodes) {
      if (!n.name.equals(nominated)) {
        continue;
      }
      for (MapValue p : n.podList) {
        if (PodSelectors.priority(p) < priority && terminatingByPreemption(p)) {
          return Optional.of(WAITING);
        }
      }
    }
    return Optional.empty();
  }

  /** A terminating Pod with the scheduler's {@code DisruptionTarget} condition. */
  static boolean terminatingByPreemption(MapValue pod) {
    if (!Meta.hasMeta(pod, "deletionTimestamp")) {
      return false;
    }
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("DisruptionTarget")
          && Nested.str(c, "status").equals("True")
          && Nested.str(c, "reason").equals(REASON)) {
        return true;
      }
    }
    return false;
  }

  /** A {@link Candidate} on {@code node}, or the Node's {@link Filters.Rejection}. */
  private static Object selectVictims(SchedulingCycle cycle, NodeInfo node,
      List<MapValue> pdbs) {
    long priority = PodSelectors.priority(cycle.pod());
    List<MapValue> lower = new ArrayList<>();
    for (MapValue p : node.podList) {
      if (PodSelectors.priority(p) < priority) {
        lower.add(p);
      }
    }
    if (lower.isEmpty()) {
      return Filters.Rejection.unresolvable(FitMessages.NO_VICTIMS);
    }
    NodeInfo without = node.with(lower, List.of());
    Optional<Filters.Rejection> r = fits(cycle, node, without);
    if (r.isPresent()) {
      return r.get();
    }
    lower.sort(Preemption::moreImportant);
    List<MapValue> violating = new ArrayList<>();
    List<MapValue> nonViolating = new ArrayList<>();
    splitByBudget(lower, pdbs, violating, nonViolating);
    List<MapValue> victims = new ArrayList<>();
    List<MapValue> kept = new ArrayList<>();
    int violations = 0;
    for (List<MapValue> group : List.of(violating, nonViolating)) {
      for (MapValue p : group) {
        kept.add(p);
        List<MapValue> removed = new ArrayList<>(lower);
        removed.removeAll(kept);
        NodeInfo trial = node.with(removed, List.of());
        if (fits(cycle, node, trial).isPresent()) {
          kept.remove(kept.size() - 1);
          victims.add(p);
          if (group == violating) {
            violations++;
          }
        }
      }
    }
    if (victims.isEmpty()) {
      return Filters.Rejection.unresolvable(FitMessages.NO_VICTIMS);
    }
    return new Candidate(node.name, List.copyOf(victims), violations);
  }

  /** The filters on {@code trial}, standing in for {@code node} in the whole snapshot. */
  private static Optional<Filters.Rejection> fits(SchedulingCycle cycle, NodeInfo node,
      NodeInfo trial) {
    List<NodeInfo> nodes = new ArrayList<>(cycle.nodes());
    nodes.replaceAll(n -> n == node ? trial : n);
    return cycle.over(nodes).filter(trial);
  }

  /** kube's {@code MoreImportantPod} as a comparator: most important first. */
  private static int moreImportant(MapValue a, MapValue b) {
    int byPriority = Long.compare(PodSelectors.priority(b), PodSelectors.priority(a));
    return byPriority != 0 ? byPriority : startTime(a).compareTo(startTime(b));
  }

  /** kube's {@code GetPodStartTime}: {@code status.startTime}, or now when not started. */
  private static Instant startTime(MapValue pod) {
    String start = Nested.str(pod, "status", "startTime");
    return start.isEmpty() ? Instant.MAX : Instant.parse(start);
  }

  /**
   * kube's {@code filterPodsWithPDBViolation}: a Pod violates when a budget of its namespace
   * selecting it (non-empty selector, Pod not yet in {@code disruptedPods}) has no disruption
   * left once the Pods before it are counted.
   */
  private static void splitByBudget(List<MapValue> pods, List<MapValue> pdbs,
      List<MapValue> violating, List<MapValue> nonViolating) {
    long[] allowed = new long[pdbs.size()];
    for (int i = 0; i < pdbs.size(); i++) {
      allowed[i] = Nested.integer(pdbs.get(i), "status", "disruptionsAllowed");
    }
    for (MapValue p : pods) {
      boolean violated = false;
      Map<String, String> labels = Meta.labels(p);
      for (int i = 0; i < pdbs.size() && !labels.isEmpty(); i++) {
        MapValue pdb = pdbs.get(i);
        if (!Meta.metaString(pdb, "namespace").equals(Meta.metaString(p, "namespace"))) {
          continue;
        }
        Optional<LabelSelector> selector;
        try {
          selector = PodSelectors.of(Nested.getOrNull(pdb, "spec", "selector"));
        } catch (IllegalArgumentException e) {
          continue;
        }
        if (selector.isEmpty() || selector.get().isEverything()
            || !selector.get().matches(labels)
            || Nested.has(pdb, "status", "disruptedPods", Meta.metaString(p, "name"))) {
          continue;
        }
        allowed[i]--;
        violated |= allowed[i] < 0;
      }
      (violated ? violating : nonViolating).add(p);
    }
  }

  /** kube's {@code pickOneNodeForPreemption}. */
  private static Candidate pick(List<Candidate> candidates) {
    Comparator<Candidate> order = Comparator
        .comparingInt(Candidate::pdbViolations)
        .thenComparingLong(c -> highestPriority(c.victims()))
        .thenComparingLong(c -> c.victims().stream()
            .mapToLong(p -> PodSelectors.priority(p) + Integer.MAX_VALUE + 1L).sum())
        .thenComparingInt(c -> c.victims().size())
        .thenComparing(c -> earliestStartOfHighest(c.victims()), Comparator.reverseOrder());
    // stable: ties keep the name order the candidates were found in
    return candidates.stream().min(order).orElseThrow();
  }

  private static long highestPriority(List<MapValue> victims) {
    return victims.stream().mapToLong(PodSelectors::priority).max().orElse(Long.MIN_VALUE);
  }

  private static Instant earliestStartOfHighest(List<MapValue> victims) {
    long highest = highestPriority(victims);
    return victims.stream().filter(p -> PodSelectors.priority(p) == highest)
        .map(Preemption::startTime).min(Comparator.naturalOrder()).orElse(Instant.MAX);
  }
}
