/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * kube-scheduler's InterPodAffinity scoring (pkg/scheduler/framework/plugins/interpodaffinity,
 * scoring.go) with its default arguments ({@code hardPodAffinityWeight} 1, preferred terms of
 * existing Pods considered): per topology pair, the weights of the Pod's preferred affinity
 * terms that existing Pods match, minus those of its preferred anti-affinity terms, plus the
 * existing Pods' required affinity terms (weight 1) and preferred terms (their weights, anti
 * negative) that the Pod matches; a Node scores the sum over its labels, normalized to
 * 0..100 between the lowest and the highest Node. kube's default profile weighs the plugin 2.
 */
final class InterPodAffinityScore {
  /** The plugin's weight in kube's default profile. */
  static final long WEIGHT = 2;
  private static final long HARD_POD_AFFINITY_WEIGHT = 1;
  private static final long MAX_NODE_SCORE = 100;

  /** Topology key, then value, to score. */
  private final Map<String, Map<String, Long>> topologyScore = new HashMap<>();

  /** The PreScore state of {@code pod} over {@code nodes}. */
  InterPodAffinityScore(MapValue pod, List<NodeInfo> nodes,
      Function<String, Map<String, String>> namespaceLabels) {
    List<Weighted> affinity;
    List<Weighted> antiAffinity;
    try {
      affinity = preferred(pod, "podAffinity");
      antiAffinity = preferred(pod, "podAntiAffinity");
    } catch (IllegalArgumentException e) {
      // the filters already refused a Pod whose own terms do not parse
      return;
    }
    Map<String, String> ownNamespaceLabels =
        namespaceLabels.apply(Meta.metaString(pod, "namespace"));
    boolean hasConstraints = !affinity.isEmpty() || !antiAffinity.isEmpty();
    for (NodeInfo n : nodes) {
      Map<String, String> nodeLabels = Meta.labels(n.node);
      if (nodeLabels.isEmpty()) {
        continue;
      }
      // kube's PreScore reads every Pod only when the incoming one has terms of its own
      for (MapValue existing : hasConstraints ? n.podList : n.podsWithAffinity) {
        boolean existingHasAffinity = Nested.has(existing, "spec", "affinity", "podAffinity")
            || Nested.has(existing, "spec", "affinity", "podAntiAffinity");
        Map<String, String> existingNamespaceLabels = hasConstraints
            ? namespaceLabels.apply(Meta.metaString(existing, "namespace")) : Map.of();
        add(affinity, existing, existingNamespaceLabels, nodeLabels, 1);
        add(antiAffinity, existing, existingNamespaceLabels, nodeLabels, -1);
        if (!existingHasAffinity) {
          continue;
        }
        try {
          for (InterPodAffinity.Term t : InterPodAffinity.requiredTerms(existing,
              "podAffinity")) {
            add(List.of(new Weighted(t, HARD_POD_AFFINITY_WEIGHT)), pod, ownNamespaceLabels,
                nodeLabels, 1);
          }
          add(preferred(existing, "podAffinity"), pod, ownNamespaceLabels, nodeLabels, 1);
          add(preferred(existing, "podAntiAffinity"), pod, ownNamespaceLabels, nodeLabels, -1);
        } catch (IllegalArgumentException e) {
          // validated when it was created; a term that does not parse counts nothing
        }
      }
    }
  }

  /** A preferred term and its weight. */
  private record Weighted(InterPodAffinity.Term term, long weight) {}

  private static List<Weighted> preferred(MapValue pod, String kind) {
    List<Value> terms = Nested.list(pod, "spec", "affinity", kind,
        "preferredDuringSchedulingIgnoredDuringExecution");
    if (terms.isEmpty()) {
      return List.of();
    }
    return terms.stream().map(w -> new Weighted(InterPodAffinity.term(pod,
        Nested.getOrNull(w, "podAffinityTerm")), Nested.integer(w, "weight"))).toList();
  }

  private void add(List<Weighted> terms, MapValue target, Map<String, String> namespaceLabels,
      Map<String, String> nodeLabels, long multiplier) {
    for (Weighted w : terms) {
      String value = nodeLabels.get(w.term().topologyKey());
      if (value != null && w.term().matches(target, namespaceLabels)) {
        topologyScore.computeIfAbsent(w.term().topologyKey(), k -> new HashMap<>())
            .merge(value, w.weight() * multiplier, Long::sum);
      }
    }
  }

  /** Whether nothing scores (kube's PreScore {@code Skip}). */
  boolean skip() {
    return topologyScore.isEmpty();
  }

  /** The normalized score (0..100) of each of {@code nodes}, by name. */
  Map<String, Long> normalized(List<NodeInfo> nodes) {
    Map<String, Long> raw = new LinkedHashMap<>();
    for (NodeInfo n : nodes) {
      long score = 0;
      Map<String, String> labels = Meta.labels(n.node);
      for (Map.Entry<String, Map<String, Long>> e : topologyScore.entrySet()) {
        String value = labels.get(e.getKey());
        if (value != null) {
          score += e.getValue().getOrDefault(value, 0L);
        }
      }
      raw.put(n.name, score);
    }
    long min = raw.values().stream().mapToLong(Long::longValue).min().orElse(0);
    long max = raw.values().stream().mapToLong(Long::longValue).max().orElse(0);
    Map<String, Long> out = new LinkedHashMap<>();
    raw.forEach((name, score) -> out.put(name, max - min > 0
        ? (long) (MAX_NODE_SCORE * ((double) (score - min) / (max - min))) : 0L));
    return out;
  }
}
