/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * kube-scheduler's default filter plugins that a simulation needs, in the order of its default
 * profile (pkg/scheduler/framework/plugins): NodeUnschedulable, NodeName, TaintToleration,
 * NodeAffinity, NodePorts, NodeResourcesFit. The first plugin that rejects a Node decides its
 * status, as the framework stops at the first failing filter.
 */
final class Filters {
  static final String ERR_UNSCHEDULABLE = "node(s) were unschedulable";
  static final String ERR_NODE_NAME = "node(s) didn't match the requested node name";
  static final String ERR_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
  static final String ERR_TAINT = "node(s) had untolerated taint(s)";
  static final String ERR_PORTS = "node(s) didn't have free ports for the requested pod ports";

  /**
   * A filter's verdict on a Node: its reasons and whether removing Pods could help
   * ({@code Unschedulable}) or not ({@code UnschedulableAndUnresolvable}).
   */
  record Rejection(List<String> reasons, boolean unresolvable) {
    Rejection {
      reasons = List.copyOf(reasons);
    }

    static Rejection unresolvable(String reason) {
      return new Rejection(List.of(reason), true);
    }
  }

  private Filters() {}

  /** Runs the filters in order; empty when the Pod fits the Node. */
  static Optional<Rejection> run(MapValue pod, NodeInfo node) {
    Optional<Rejection> r = nodeUnschedulable(pod, node.node);
    if (r.isEmpty()) {
      r = nodeName(pod, node.node);
    }
    if (r.isEmpty()) {
      r = taintToleration(pod, node.node);
    }
    if (r.isEmpty()) {
      r = nodeAffinity(pod, node.node);
    }
    if (r.isEmpty()) {
      r = nodePorts(pod, node);
    }
    if (r.isEmpty()) {
      r = fit(pod, node);
    }
    return r;
  }

  /** NodeUnschedulable: a cordoned Node, unless the Pod tolerates its unschedulable taint. */
  static Optional<Rejection> nodeUnschedulable(MapValue pod, MapValue node) {
    if (!Nested.bool(node, "spec", "unschedulable")) {
      return Optional.empty();
    }
    MapValue taint = MapValue.ofEntries("key", Value.of("node.kubernetes.io/unschedulable"),
        "effect", Value.of("NoSchedule"));
    if (tolerated(Nested.list(pod, "spec", "tolerations"), taint)) {
      return Optional.empty();
    }
    return Optional.of(Rejection.unresolvable(ERR_UNSCHEDULABLE));
  }

  /** NodeName: a Pod naming another Node. */
  static Optional<Rejection> nodeName(MapValue pod, MapValue node) {
    String want = Nested.str(pod, "spec", "nodeName");
    if (want.isEmpty() || want.equals(Meta.metaString(node, "name"))) {
      return Optional.empty();
    }
    return Optional.of(Rejection.unresolvable(ERR_NODE_NAME));
  }

  /** TaintToleration: the first NoSchedule or NoExecute taint no toleration tolerates. */
  static Optional<Rejection> taintToleration(MapValue pod, MapValue node) {
    List<Value> tolerations = Nested.list(pod, "spec", "tolerations");
    for (Value taint : Nested.list(node, "spec", "taints")) {
      String effect = Nested.str(taint, "effect");
      if (!effect.equals("NoSchedule") && !effect.equals("NoExecute")) {
        continue;
      }
      if (!tolerated(tolerations, taint)) {
        // kube no longer names the taint (its key and value may be private)
        return Optional.of(Rejection.unresolvable(ERR_TAINT));
      }
    }
    return Optional.empty();
  }

  /** core/v1 {@code Toleration.ToleratesTaint} over a list. */
  static boolean tolerated(List<Value> tolerations, Value taint) {
    for (Value t : tolerations) {
      String effect = Nested.str(t, "effect");
      if (!effect.isEmpty() && !effect.equals(Nested.str(taint, "effect"))) {
        continue;
      }
      String key = Nested.str(t, "key");
      if (!key.isEmpty() && !key.equals(Nested.str(taint, "key"))) {
        continue;
      }
      String op = Nested.str(t, "operator");
      if (op.equals("Exists")
          || (op.isEmpty() || op.equals("Equal"))
              && Nested.str(t, "value").equals(Nested.str(taint, "value"))) {
        return true;
      }
    }
    return false;
  }

  /**
   * NodeAffinity: the Pod's {@code nodeSelector} and required node affinity
   * ({@code nodeSelectorTerms} ORed, each term's expressions and fields ANDed).
   */
  static Optional<Rejection> nodeAffinity(MapValue pod, MapValue node) {
    Map<String, String> labels = Meta.labels(node);
    MapValue selector = Nested.map(pod, "spec", "nodeSelector");
    for (int i = 0; i < selector.size(); i++) {
      if (!Nested.str(selector.valueAt(i)).equals(labels.get(selector.keyAt(i)))) {
        return Optional.of(Rejection.unresolvable(ERR_AFFINITY));
      }
    }
    Value required = Nested.getOrNull(pod, "spec", "affinity", "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution");
    if (required != null && !matchesAnyTerm(Nested.list(required, "nodeSelectorTerms"), node)) {
      return Optional.of(Rejection.unresolvable(ERR_AFFINITY));
    }
    return Optional.empty();
  }

  private static boolean matchesAnyTerm(List<Value> terms, MapValue node) {
    Map<String, String> labels = Meta.labels(node);
    Map<String, String> fields = Map.of("metadata.name", Meta.metaString(node, "name"));
    for (Value term : terms) {
      List<Value> expressions = Nested.list(term, "matchExpressions");
      List<Value> matchFields = Nested.list(term, "matchFields");
      if (expressions.isEmpty() && matchFields.isEmpty()) {
        // an empty term matches no objects
        continue;
      }
      boolean all = true;
      for (Value e : expressions) {
        // kube cannot parse a term with an invalid requirement; such a term matches nothing
        all &= valid(e) && matches(e, labels);
      }
      for (Value f : matchFields) {
        all &= matches(f, fields);
      }
      if (all) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether apimachinery's {@code labels.NewRequirement} accepts the requirement: a qualified
   * key and label values.
   */
  static boolean valid(Value requirement) {
    if (!io.apiserver4j.core.LabelValidation.qualifiedName(Nested.str(requirement, "key"))
        .isEmpty()) {
      return false;
    }
    for (Value v : Nested.list(requirement, "values")) {
      if (!io.apiserver4j.core.LabelValidation.labelValue(Nested.str(v)).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /** A {@code NodeSelectorRequirement} against labels (or fields). */
  static boolean matches(Value requirement, Map<String, String> labels) {
    String key = Nested.str(requirement, "key");
    List<String> values = new ArrayList<>();
    for (Value v : Nested.list(requirement, "values")) {
      values.add(Nested.str(v));
    }
    String have = labels.get(key);
    switch (Nested.str(requirement, "operator")) {
      case "In":
        return have != null && values.contains(have);
      case "NotIn":
        return have == null || !values.contains(have);
      case "Exists":
        return have != null;
      case "DoesNotExist":
        return have == null;
      case "Gt":
      case "Lt":
        if (have == null || values.size() != 1) {
          return false;
        }
        try {
          long label = Long.parseLong(have);
          long bound = Long.parseLong(values.get(0));
          return Nested.str(requirement, "operator").equals("Gt") ? label > bound
              : label < bound;
        } catch (NumberFormatException e) {
          return false;
        }
      default:
        return false;
    }
  }

  /** NodePorts: a wanted host port already used on the Node (0.0.0.0 clashes with any IP). */
  static Optional<Rejection> nodePorts(MapValue pod, NodeInfo node) {
    for (NodeInfo.HostPort want : NodeInfo.hostPorts(pod)) {
      for (NodeInfo.HostPort used : node.usedPorts) {
        if (want.port() == used.port() && want.protocol().equals(used.protocol())
            && (want.ip().equals("0.0.0.0") || used.ip().equals("0.0.0.0")
                || want.ip().equals(used.ip()))) {
          return Optional.of(new Rejection(List.of(ERR_PORTS), false));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * NodeResourcesFit: the Pod count against allocatable pods, then each requested resource
   * against allocatable minus what the Node's Pods request; unresolvable when the request
   * alone exceeds allocatable.
   */
  static Optional<Rejection> fit(MapValue pod, NodeInfo node) {
    List<String> reasons = new ArrayList<>();
    boolean unresolvable = false;
    if (node.pods + 1 > node.allocatable("pods")) {
      reasons.add("Too many pods");
    }
    Resources want = Resources.podRequests(pod);
    List<String> order = new ArrayList<>(List.of("cpu", "memory", "ephemeral-storage"));
    for (String r : want.amounts.keySet()) {
      if (!order.contains(r) && !r.equals("pods")) {
        order.add(r);
      }
    }
    for (String r : order) {
      long request = want.get(r);
      if (request <= 0) {
        continue;
      }
      if (!r.equals("cpu") && !r.equals("memory") && !r.equals("ephemeral-storage")
          && !scalar(r)) {
        continue;
      }
      if (request > node.allocatable(r) - node.requested.get(r)) {
        reasons.add("Insufficient " + r);
        unresolvable |= request > node.allocatable(r);
      }
    }
    if (reasons.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Rejection(reasons, unresolvable));
  }

  /** kube's {@code IsScalarResourceName}: extended, hugepages, attachable volumes. */
  private static boolean scalar(String resource) {
    return resource.contains("/") && !resource.contains("kubernetes.io/")
        || resource.startsWith("hugepages-") || resource.startsWith("attachable-volumes-");
  }
}
