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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * kube-scheduler's InterPodAffinity filter (pkg/scheduler/framework/plugins/interpodaffinity,
 * filtering.go) for one Pod over one snapshot: its PreFilter counts, per topology pair, the
 * existing Pods whose required anti-affinity terms match the Pod, the existing Pods matching
 * all of the Pod's required affinity terms, and those matching each of its anti-affinity
 * terms; its Filter then rejects a Node whose topology values are taken. The first Pod of a
 * group with affinity to itself may go anywhere its topology keys exist (kube's
 * self-affinity exception). Only the required terms filter; the preferred ones score, in
 * {@link InterPodAffinityScore}.
 */
final class InterPodAffinity {
  /** kube's {@code ErrReasonAffinityRulesNotMatch}. */
  static final String ERR_AFFINITY = "node(s) didn't match pod affinity rules";
  /** kube's {@code ErrReasonAntiAffinityRulesNotMatch}. */
  static final String ERR_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
  /** kube's {@code ErrReasonExistingAntiAffinityRulesNotMatch}. */
  static final String ERR_EXISTING_ANTI_AFFINITY =
      "node(s) didn't satisfy existing pods anti-affinity rules";

  /**
   * A parsed {@code PodAffinityTerm} (kube's {@code framework.AffinityTerm}): the namespaces
   * it names (the owning Pod's own when it names none and has no namespace selector), its
   * namespace selector (empty: none), its label selector (empty: matches nothing) and key.
   */
  record Term(Set<String> namespaces, Optional<LabelSelector> namespaceSelector,
      Optional<LabelSelector> selector, String topologyKey) {
    /** kube's {@code AffinityTerm.Matches}: namespace (by name or labels), then labels. */
    boolean matches(MapValue pod, Map<String, String> namespaceLabels) {
      boolean namespace = namespaces.contains(Meta.metaString(pod, "namespace"))
          || namespaceSelector.map(s -> s.matches(namespaceLabels)).orElse(false);
      return namespace && selector.map(s -> s.matches(Meta.labels(pod))).orElse(false);
    }
  }

  /** A topology key and one of its values. */
  private record Pair(String key, String value) {}

  private final MapValue pod;
  private final List<Term> affinityTerms;
  private final List<Term> antiAffinityTerms;
  private final Map<Pair, Long> existingAntiAffinityCounts = new HashMap<>();
  private final Map<Pair, Long> affinityCounts = new HashMap<>();
  private final Map<Pair, Long> antiAffinityCounts = new HashMap<>();
  /** The incoming Pod's namespace labels, for its self-affinity check. */
  private final Map<String, String> selfNamespaceLabels;

  /**
   * The PreFilter state of {@code pod} over {@code nodes}; {@code namespaceLabels} gives a
   * namespace's labels (empty for one that does not exist).
   *
   * @throws IllegalArgumentException when one of the Pod's own terms does not parse
   */
  InterPodAffinity(MapValue pod, List<NodeInfo> nodes,
      Function<String, Map<String, String>> namespaceLabels) {
    this.pod = pod;
    this.affinityTerms = requiredTerms(pod, "podAffinity");
    this.antiAffinityTerms = requiredTerms(pod, "podAntiAffinity");
    Map<String, String> ownNamespaceLabels =
        namespaceLabels.apply(Meta.metaString(pod, "namespace"));
    boolean ownTerms = !affinityTerms.isEmpty() || !antiAffinityTerms.isEmpty();
    for (NodeInfo n : nodes) {
      Map<String, String> nodeLabels = Meta.labels(n.node);
      // kube's getExistingAntiAffinityCounts reads only the Pods with required anti-affinity
      for (MapValue existing : n.podsWithRequiredAntiAffinity) {
        List<Term> terms;
        try {
          terms = requiredTerms(existing, "podAntiAffinity");
        } catch (IllegalArgumentException e) {
          // the apiserver validated it when it was created; kube skips what it cannot parse
          continue;
        }
        for (Term t : terms) {
          if (t.matches(pod, ownNamespaceLabels)) {
            count(existingAntiAffinityCounts, nodeLabels, t.topologyKey());
          }
        }
      }
      if (!ownTerms) {
        continue;
      }
      for (MapValue existing : n.podList) {
        Map<String, String> existingNamespaceLabels =
            namespaceLabels.apply(Meta.metaString(existing, "namespace"));
        if (!affinityTerms.isEmpty() && matchesAll(affinityTerms, existing,
            existingNamespaceLabels)) {
          for (Term t : affinityTerms) {
            count(affinityCounts, nodeLabels, t.topologyKey());
          }
        }
        for (Term t : antiAffinityTerms) {
          if (t.matches(existing, existingNamespaceLabels)) {
            count(antiAffinityCounts, nodeLabels, t.topologyKey());
          }
        }
      }
    }
    selfNamespaceLabels = ownNamespaceLabels;
  }

  /** Whether the filter has nothing to check (kube's PreFilter {@code Skip}). */
  boolean skip() {
    return existingAntiAffinityCounts.isEmpty() && affinityTerms.isEmpty()
        && antiAffinityTerms.isEmpty();
  }

  /** The Filter verdict on {@code node}: affinity, then anti-affinity, then existing Pods'. */
  Optional<Filters.Rejection> filter(NodeInfo node) {
    Map<String, String> labels = Meta.labels(node.node);
    if (!satisfiesAffinity(labels)) {
      return Optional.of(Filters.Rejection.unresolvable(ERR_AFFINITY));
    }
    if (!antiAffinityCounts.isEmpty()) {
      for (Term t : antiAffinityTerms) {
        String value = labels.get(t.topologyKey());
        if (value != null && antiAffinityCounts.getOrDefault(new Pair(t.topologyKey(), value),
            0L) > 0) {
          return Optional.of(new Filters.Rejection(List.of(ERR_ANTI_AFFINITY), false));
        }
      }
    }
    if (!existingAntiAffinityCounts.isEmpty()) {
      for (Map.Entry<String, String> l : labels.entrySet()) {
        if (existingAntiAffinityCounts.getOrDefault(new Pair(l.getKey(), l.getValue()), 0L)
            > 0) {
          return Optional.of(new Filters.Rejection(List.of(ERR_EXISTING_ANTI_AFFINITY),
              false));
        }
      }
    }
    return Optional.empty();
  }

  private boolean satisfiesAffinity(Map<String, String> labels) {
    boolean podsExist = true;
    for (Term t : affinityTerms) {
      String value = labels.get(t.topologyKey());
      if (value == null) {
        // every topology key must exist on the Node
        return false;
      }
      if (affinityCounts.getOrDefault(new Pair(t.topologyKey(), value), 0L) <= 0) {
        podsExist = false;
      }
    }
    // the first Pod of a group with affinity to itself must not wait forever
    return podsExist || affinityCounts.isEmpty()
        && matchesAll(affinityTerms, pod, selfNamespaceLabels);
  }

  private static boolean matchesAll(List<Term> terms, MapValue pod,
      Map<String, String> namespaceLabels) {
    for (Term t : terms) {
      if (!t.matches(pod, namespaceLabels)) {
        return false;
      }
    }
    return true;
  }

  private static void count(Map<Pair, Long> counts, Map<String, String> nodeLabels,
      String topologyKey) {
    String value = nodeLabels.get(topologyKey);
    if (value != null) {
      counts.merge(new Pair(topologyKey, value), 1L, Long::sum);
    }
  }

  /**
   * The required terms of {@code kind} ({@code podAffinity} or {@code podAntiAffinity}) of
   * {@code pod}, parsed as kube's {@code newAffinityTerm}.
   *
   * @throws IllegalArgumentException when a selector does not parse
   */
  static List<Term> requiredTerms(MapValue pod, String kind) {
    List<Term> out = new ArrayList<>();
    for (Value term : Nested.list(pod, "spec", "affinity", kind,
        "requiredDuringSchedulingIgnoredDuringExecution")) {
      out.add(term(pod, term));
    }
    return out;
  }

  /**
   * One {@code PodAffinityTerm} of {@code pod}, parsed as kube's {@code newAffinityTerm}.
   *
   * @throws IllegalArgumentException when a selector does not parse
   */
  static Term term(MapValue pod, Value term) {
    Set<String> namespaces = new HashSet<>();
    for (Value ns : Nested.list(term, "namespaces")) {
      namespaces.add(Nested.str(ns));
    }
    Value namespaceSelector = Nested.getOrNull(term, "namespaceSelector");
    if (namespaces.isEmpty() && !(namespaceSelector instanceof MapValue)) {
      namespaces.add(Meta.metaString(pod, "namespace"));
    }
    Optional<LabelSelector> selector = PodSelectors.withLabelKeys(
        PodSelectors.of(Nested.getOrNull(term, "labelSelector")), pod,
        Nested.list(term, "matchLabelKeys"), Nested.list(term, "mismatchLabelKeys"));
    return new Term(Set.copyOf(namespaces), PodSelectors.of(namespaceSelector), selector,
        Nested.str(term, "topologyKey"));
  }
}
