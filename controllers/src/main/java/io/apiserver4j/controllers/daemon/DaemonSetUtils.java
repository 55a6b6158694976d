/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.daemon;

import io.apiserver4j.controllers.internal.PodTemplateHash;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;

/**
 * kube's daemon controller helpers (pkg/controller/daemon/util and the predicates of
 * daemon_controller.go) on DaemonSet, Node and Pod values: which Nodes should run a daemon Pod,
 * the tolerations kube adds to daemon Pods, the Pod template with its revision labels and the
 * node-name affinity, and the target Node of an unscheduled Pod. Pure functions.
 */
final class DaemonSetUtils {
  /** apps/v1 {@code DefaultDaemonSetUniqueLabelKey}. */
  static final String HASH_LABEL = "controller-revision-hash";
  /** extensions {@code DaemonSetTemplateGenerationKey}. */
  static final String TEMPLATE_GENERATION_LABEL = "pod-template-generation";
  /** The annotation kube's DaemonSet strategy keeps the template generation in. */
  static final String TEMPLATE_GENERATION_ANNOTATION = "deprecated.daemonset.template.generation";

  private DaemonSetUtils() {}

  /** What {@link #nodeShouldRunDaemonPod} answers. */
  record ShouldRun(boolean shouldRun, boolean shouldContinueRunning) {}

  /**
   * kube's {@code NodeShouldRunDaemonPod}: the template's nodeName, nodeSelector and required
   * node affinity must match the Node; a taint the Pod (with the daemon tolerations) does not
   * tolerate stops new Pods, and stops running ones only when its effect is NoExecute.
   */
  static ShouldRun nodeShouldRunDaemonPod(MapValue node, MapValue ds) {
    MapValue spec = podSpec(ds, Meta.metaString(node, "name"));
    String templateNode = Nested.str(ds, "spec", "template", "spec", "nodeName");
    String nodeName = Meta.metaString(node, "name");
    if (!templateNode.isEmpty() && !templateNode.equals(nodeName)) {
      return new ShouldRun(false, false);
    }
    if (!requiredAffinityMatches(spec, node)) {
      return new ShouldRun(false, false);
    }
    List<Value> taints = Nested.list(node, "spec", "taints");
    List<Value> tolerations = Nested.list(spec, "tolerations");
    boolean fitsTaints = untolerated(taints, tolerations,
        t -> effect(t).equals("NoExecute") || effect(t).equals("NoSchedule")).isEmpty();
    if (!fitsTaints) {
      boolean noExecute = untolerated(taints, tolerations, t -> effect(t).equals("NoExecute"))
          .isPresent();
      return new ShouldRun(false, !noExecute);
    }
    return new ShouldRun(true, true);
  }

  private static String effect(Value taint) {
    return Nested.str(taint, "effect");
  }

  /** kube's {@code NewPod}: the template's spec on the Node, with the daemon tolerations. */
  static MapValue podSpec(MapValue ds, String nodeName) {
    MapValue spec = Nested.map(ds, "spec", "template", "spec");
    return addDaemonTolerations(spec).with("nodeName", Value.of(nodeName));
  }

  /** kube's {@code FindMatchingUntoleratedTaint} over the taints the filter keeps. */
  static Optional<Value> untolerated(List<Value> taints, List<Value> tolerations,
      Predicate<Value> filter) {
    for (Value taint : taints) {
      if (!filter.test(taint)) {
        continue;
      }
      boolean tolerated = tolerations.stream().anyMatch(t -> tolerates(t, taint));
      if (!tolerated) {
        return Optional.of(taint);
      }
    }
    return Optional.empty();
  }

  /** core/v1 {@code Toleration.ToleratesTaint}. */
  static boolean tolerates(Value toleration, Value taint) {
    String effect = Nested.str(toleration, "effect");
    if (!effect.isEmpty() && !effect.equals(Nested.str(taint, "effect"))) {
      return false;
    }
    String key = Nested.str(toleration, "key");
    if (!key.isEmpty() && !key.equals(Nested.str(taint, "key"))) {
      return false;
    }
    switch (Nested.str(toleration, "operator")) {
      case "", "Equal":
        return Nested.str(toleration, "value").equals(Nested.str(taint, "value"));
      case "Exists":
        return true;
      default:
        return false;
    }
  }

  /**
   * kube's {@code AddOrUpdateDaemonPodTolerations}: not-ready and unreachable NoExecute,
   * disk-pressure, memory-pressure, pid-pressure and unschedulable NoSchedule, and
   * network-unavailable NoSchedule for host-network Pods; each added unless an equal one is
   * there (same key, operator, value, effect), which is replaced.
   */
  static MapValue addDaemonTolerations(MapValue spec) {
    List<Value> tolerations = new ArrayList<>(Nested.list(spec, "tolerations"));
    add(tolerations, "node.kubernetes.io/not-ready", "NoExecute");
    add(tolerations, "node.kubernetes.io/unreachable", "NoExecute");
    add(tolerations, "node.kubernetes.io/disk-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/memory-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/pid-pressure", "NoSchedule");
    add(tolerations, "node.kubernetes.io/unschedulable", "NoSchedule");
    if (Nested.bool(spec, "hostNetwork")) {
      add(tolerations, "node.kubernetes.io/network-unavailable", "NoSchedule");
    }
    return spec.with("tolerations", ListValue.of(tolerations));
  }

  private static void add(List<Value> tolerations, String key, String effect) {
    MapValue t = MapValue.ofEntries("key", Value.of(key), "operator", Value.of("Exists"),
        "effect", Value.of(effect));
    for (int i = 0; i < tolerations.size(); i++) {
      Value old = tolerations.get(i);
      if (Nested.str(old, "key").equals(key) && Nested.str(old, "operator").equals("Exists")
          && Nested.str(old, "value").isEmpty() && Nested.str(old, "effect").equals(effect)) {
        tolerations.set(i, t);
        return;
      }
    }
    tolerations.add(t);
  }

  /**
   * kube's {@code GetRequiredNodeAffinity(pod).Match(node)}: the nodeSelector's labels, and
   * one of the required node selector terms (each term's expressions on labels and fields on
   * {@code metadata.name} all hold; an empty term matches nothing).
   */
  static boolean requiredAffinityMatches(MapValue podSpec, MapValue node) {
    Map<String, String> labels = Meta.labels(node);
    MapValue selector = Nested.map(podSpec, "nodeSelector");
    for (int i = 0; i < selector.size(); i++) {
      if (!Nested.str(selector.valueAt(i)).equals(labels.get(selector.keyAt(i)))) {
        return false;
      }
    }
    Value required = Nested.getOrNull(podSpec, "affinity", "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution");
    if (required == null || required.equals(Value.nullValue())) {
      return true;
    }
    Map<String, String> fields = Map.of("metadata.name", Meta.metaString(node, "name"));
    for (Value term : Nested.list(required, "nodeSelectorTerms")) {
      List<Value> expressions = Nested.list(term, "matchExpressions");
      List<Value> matchFields = Nested.list(term, "matchFields");
      if (expressions.isEmpty() && matchFields.isEmpty()) {
        continue;
      }
      if (expressions.stream().allMatch(r -> requirementMatches(r, labels))
          && matchFields.stream().allMatch(r -> requirementMatches(r, fields))) {
        return true;
      }
    }
    return false;
  }

  /** A node selector requirement: In, NotIn, Exists, DoesNotExist, Gt, Lt. */
  static boolean requirementMatches(Value requirement, Map<String, String> labels) {
    String key = Nested.str(requirement, "key");
    List<String> values = Meta.stringList(Nested.getOrNull(requirement, "values"));
    String actual = labels.get(key);
    switch (Nested.str(requirement, "operator")) {
      case "In":
        return actual != null && values.contains(actual);
      case "NotIn":
        return actual == null || !values.contains(actual);
      case "Exists":
        return actual != null;
      case "DoesNotExist":
        return actual == null;
      case "Gt":
      case "Lt":
        if (actual == null || values.size() != 1) {
          return false;
        }
        try {
          long have = Long.parseLong(actual);
          long want = Long.parseLong(values.get(0));
          return Nested.str(requirement, "operator").equals("Gt") ? have > want : have < want;
        } catch (NumberFormatException e) {
          return false;
        }
      default:
        return false;
    }
  }

  /**
   * kube's {@code GetTargetNodeName}: the Pod's nodeName, else the single node name of its
   * required {@code metadata.name} matchFields term.
   */
  static Optional<String> targetNodeName(MapValue pod) {
    String nodeName = Nested.str(pod, "spec", "nodeName");
    if (!nodeName.isEmpty()) {
      return Optional.of(nodeName);
    }
    List<Value> terms = Nested.list(pod, "spec", "affinity", "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms");
    for (Value term : terms) {
      for (Value f : Nested.list(term, "matchFields")) {
        List<String> values = Meta.stringList(Nested.getOrNull(f, "values"));
        if (Nested.str(f, "key").equals("metadata.name")
            && Nested.str(f, "operator").equals("In") && values.size() == 1) {
          return Optional.of(values.get(0));
        }
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code ReplaceDaemonSetPodNodeNameNodeAffinity}: the required node selector becomes
   * the single term {@code metadata.name In [node]}; other affinity is kept.
   */
  static MapValue withNodeNameAffinity(MapValue spec, String nodeName) {
    MapValue term = MapValue.ofEntries("matchFields", ListValue.of(List.of(MapValue.ofEntries(
        "key", Value.of("metadata.name"), "operator", Value.of("In"),
        "values", ListValue.ofStrings(List.of(nodeName))))));
    MapValue required = MapValue.ofEntries("nodeSelectorTerms", ListValue.of(List.of(term)));
    return Nested.set(spec, required, "affinity", "nodeAffinity",
        "requiredDuringSchedulingIgnoredDuringExecution");
  }

  /** The DaemonSet's template generation annotation, if it has a valid one. */
  static Optional<Long> templateGeneration(MapValue ds) {
    String s = Meta.annotations(ds).get(TEMPLATE_GENERATION_ANNOTATION);
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Long.parseLong(s));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /**
   * kube's {@code CreatePodTemplate}: the template with the daemon tolerations and the
   * template-generation and revision-hash labels.
   */
  static MapValue podTemplate(MapValue ds, String hash) {
    MapValue template = Nested.map(ds, "spec", "template");
    template = template.with("spec", addDaemonTolerations(Nested.map(template, "spec")));
    MapValue labels = Nested.map(template, "metadata", "labels");
    Optional<Long> generation = templateGeneration(ds);
    if (generation.isPresent()) {
      labels = labels.with(TEMPLATE_GENERATION_LABEL, Value.of(Long.toString(generation.get())));
    }
    if (!hash.isEmpty()) {
      labels = labels.with(HASH_LABEL, Value.of(hash));
    }
    return Nested.set(template, labels, "metadata", "labels");
  }

  /** kube's {@code IsPodUpdated}: the Pod's hash or template generation label is current. */
  static boolean isPodUpdated(MapValue pod, String hash, Optional<Long> generation) {
    Map<String, String> labels = Meta.labels(pod);
    boolean templateMatches = generation.isPresent()
        && Long.toString(generation.get()).equals(labels.get(TEMPLATE_GENERATION_LABEL));
    boolean hashMatches = !hash.isEmpty() && hash.equals(labels.get(HASH_LABEL));
    return hashMatches || templateMatches;
  }

  /** kube's {@code getPatch} for a DaemonSet: its template, replacing the old one. */
  static MapValue patch(MapValue ds) {
    MapValue template = Nested.map(ds, "spec", "template").with("$patch", Value.of("replace"));
    return MapValue.ofEntries("spec", MapValue.ofEntries("template", template));
  }

  /**
   * The DaemonSet's {@code controller-revision-hash}: kube's {@code snapshot} computes
   * {@code controller.ComputeHash(&ds.Spec.Template, ds.Status.CollisionCount)}, the same hash
   * as a Deployment's pod-template-hash, so revision and Pod labels match a real cluster's.
   */
  static String templateHash(MapValue ds) {
    OptionalLong collisionCount = Nested.has(ds, "status", "collisionCount")
        ? OptionalLong.of(Nested.integer(ds, "status", "collisionCount")) : OptionalLong.empty();
    return PodTemplateHash.compute(Nested.map(ds, "spec", "template"), collisionCount);
  }

  /** kube's ControllerRevision name for a DaemonSet: {@code ds.Name + "-" + hash}, untruncated. */
  static String revisionName(MapValue ds, String hash) {
    return Meta.metaString(ds, "name") + "-" + hash;
  }
}
