/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.cluster.internal.EventWriter;
import io.apiserver4j.cluster.internal.Obj;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-scheduler's default profile, reduced to what a simulation needs: one Pod at a time
 * (kube's scheduling cycle), Pods of {@code schedulerName: default-scheduler} without a
 * {@code nodeName} and without scheduling gates; the {@link Filters} in kube's order, then
 * {@link PodTopologySpread} and {@link InterPodAffinity} (see {@link SchedulingCycle}), then
 * least-allocated scoring on CPU and memory plus {@link PodTopologySpreadScore} and
 * {@link InterPodAffinityScore} at kube's weight 2 each (ties to the first Node by name; kube's other scoring plugins are not simulated); a fitting
 * Pod is bound through {@code pods/binding} and gets a {@code Scheduled} Event. A Pod that fits
 * nowhere goes through {@link Preemption}: when lower-priority Pods can make room on a Node,
 * they get the {@code DisruptionTarget} condition, are deleted (gracefully) and get a
 * {@code Preempted} Event, and the Pod gets {@code status.nominatedNodeName}; either way it
 * gets {@code PodScheduled=False}, reason {@code Unschedulable}, kube's {@code FitError}
 * message (with the PostFilter part when preemption did not help) and a
 * {@code FailedScheduling} Event. Unschedulable Pods are tried again when a Node is added or
 * changes, or an assigned Pod is bound, relabelled, deleted, starts terminating or terminates.
 * Before binding, {@link VolumeBinding} selects the Node for the Pod's WaitForFirstConsumer
 * claims.
 * Writes are made as {@code system:kube-scheduler} with field manager {@code kube-scheduler}.
 */
public final class Scheduler implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
  static final String NAME = "default-scheduler";
  static final String FIELD_MANAGER = "kube-scheduler";
  /** kube-scheduler's {@code ErrNoNodesAvailable}. */
  static final String NO_NODES = "no nodes available to schedule pods";
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final UserInfo USER = UserInfo.of("system:kube-scheduler",
      "system:authenticated");

  private final ControllerContext context;
  private final Informer pods;
  private final Informer nodes;
  private final Informer namespaces;
  private final Informer budgets;
  private final VolumeBinding volumeBinding;
  private final Informer services;
  private final Informer replicationControllers;
  private final Informer replicaSets;
  private final Informer statefulSets;
  private final WorkQueue<String> queue;
  private final EventWriter events;
  /** Pods found unschedulable, tried again on cluster changes. */
  private final Set<String> unschedulable = ConcurrentHashMap.newKeySet();
  /** Pods bound by this scheduler that the informer does not show bound yet, by Node. */
  private final Map<String, MapValue> assumed = new ConcurrentHashMap<>();
  /**
   * The assigned Pods that have not terminated, by Node name then key, kept by the Pod handler
   * (which sees every write before it returns): a cycle reads its Nodes' Pods from here instead
   * of scanning every cached Pod.
   */
  private final Map<String, Map<String, Assigned>> assignedPods = new ConcurrentHashMap<>();

  /**
   * Changes to each Node's entry of {@link #assignedPods}, counted by the Pod handler: a cached
   * {@link NodeInfo} built at the same count, of the same Node version, is still exact.
   */
  private final Map<String, java.util.concurrent.atomic.AtomicLong> assignedVersions =
      new ConcurrentHashMap<>();

  /** Each Node's info as the last cycle built it, by name (only the scheduler's worker). */
  private final Map<String, CachedInfo> infos = new ConcurrentHashMap<>();

  /** A Node's info built from a Node version and its assigned Pods at {@code version}. */
  private record CachedInfo(MapValue node, long version, NodeInfo info) {}

  /** An assigned Pod and its usage. */
  private record Assigned(MapValue pod, NodeInfo.PodUsage usage) {}
  /** Each assigned Pod's usage by UID, so that a cycle does not parse every Pod again. */
  private final Map<String, NodeInfo.PodUsage> usage = new ConcurrentHashMap<>();
  private Workers workers;
  /**
   * Counts the cluster changes that retry unschedulable Pods: a change during a cycle that
   * found its Pod unschedulable retries it too (kube's in-flight events), else it is missed.
   */
  private final java.util.concurrent.atomic.AtomicLong clusterChanges =
      new java.util.concurrent.atomic.AtomicLong();

  /** The scheduler of {@code context}'s server. */
  public Scheduler(ControllerContext context) {
    this.context = context;
    this.queue = context.newQueue("scheduler");
    this.events = new EventWriter(context, USER, FIELD_MANAGER, NAME,
        NAME + "-apiserver4j");
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.namespaces = context.informers().informer(new GroupResource("", "namespaces"));
    this.budgets = context.informers().informer(new GroupResource("policy",
        "poddisruptionbudgets"));
    this.volumeBinding = new VolumeBinding(context, USER, FIELD_MANAGER);
    this.services = context.informers().informer(new GroupResource("", "services"));
    this.replicationControllers = context.informers().informer(new GroupResource("",
        "replicationcontrollers"));
    this.replicaSets = context.informers().informer(new GroupResource("apps", "replicasets"));
    this.statefulSets = context.informers().informer(new GroupResource("apps",
        "statefulsets"));
    pods.addHandler(new PodHandler());
    nodes.addHandler(new NodeHandler());
  }

  @Override
  public void start() {
    // one worker: kube schedules one Pod at a time, so each cycle sees the previous binding
    workers = context.startWorkers("scheduler", queue, 1, this::sync);
  }

  @Override
  public void close() {
    if (workers != null) {
      workers.close();
    } else {
      queue.shutDown();
    }
  }

  static boolean pending(MapValue pod) {
    String scheduler = Nested.str(pod, "spec", "schedulerName");
    String phase = Nested.str(pod, "status", "phase");
    return (scheduler.isEmpty() || scheduler.equals(NAME))
        && Nested.str(pod, "spec", "nodeName").isEmpty()
        && !Meta.hasMeta(pod, "deletionTimestamp")
        && !phase.equals("Succeeded") && !phase.equals("Failed");
  }

  private static boolean terminal(MapValue pod) {
    String phase = Nested.str(pod, "status", "phase");
    return phase.equals("Succeeded") || phase.equals("Failed");
  }

  private static String key(MapValue pod) {
    return Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name");
  }

  private void retryUnschedulable() {
    clusterChanges.incrementAndGet();
    for (String k : unschedulable) {
      queue.add(k);
    }
  }

  /** Keeps {@link #assignedPods} up to date with a change from {@code old} to {@code pod}. */
  private void track(MapValue old, MapValue pod) {
    String node = pod == null ? "" : Nested.str(pod, "spec", "nodeName");
    boolean counts = !node.isEmpty() && !terminal(pod);
    if (old != null) {
      String oldNode = Nested.str(old, "spec", "nodeName");
      if (!oldNode.isEmpty() && (!counts || !oldNode.equals(node))) {
        Map<String, Assigned> there = assignedPods.get(oldNode);
        if (there != null) {
          there.remove(key(old));
        }
      }
    }
    if (counts) {
      NodeInfo.PodUsage podUsage = usage.computeIfAbsent(Meta.metaString(pod, "uid"),
          uid -> NodeInfo.PodUsage.of(pod));
      assignedPods.computeIfAbsent(node, n -> new ConcurrentHashMap<>())
          .put(key(pod), new Assigned(pod, podUsage));
    }
    // after the change: a cycle that read the count before it builds the info again
    if (old != null) {
      bump(Nested.str(old, "spec", "nodeName"));
    }
    if (counts) {
      bump(node);
    }
  }

  /**
   * Marks the cached info of {@code node} stale; called after its entry changed, so that an
   * info built from the entry before the change is kept under an older count.
   */
  private void bump(String node) {
    if (!node.isEmpty()) {
      assignedVersions.computeIfAbsent(node, n -> new java.util.concurrent.atomic.AtomicLong())
          .incrementAndGet();
    }
  }

  private final class PodHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue pod) {
      track(null, pod);
      if (pending(pod)) {
        queue.add(key(pod));
      } else if (!Nested.str(pod, "spec", "nodeName").isEmpty()) {
        // an assigned Pod can satisfy a waiting Pod's affinity or spread (kube requeues on it)
        retryUnschedulable();
      }
    }

    @Override
    public void onUpdate(MapValue old, MapValue pod) {
      track(old, pod);
      String k = key(pod);
      if (!Nested.str(pod, "spec", "nodeName").isEmpty()) {
        assumed.remove(k);
        unschedulable.remove(k);
        if (!terminal(old) && terminal(pod) || !Meta.hasMeta(old, "deletionTimestamp")
            && Meta.hasMeta(pod, "deletionTimestamp")
            // a newly bound or relabelled Pod can satisfy a waiting Pod's affinity or spread
            || Nested.str(old, "spec", "nodeName").isEmpty()
            || !Meta.labels(old).equals(Meta.labels(pod))) {
          retryUnschedulable();
        }
        return;
      }
      if (!pending(pod)) {
        unschedulable.remove(k);
        return;
      }
      if (unschedulable.contains(k) && Objects.equals(old.getOrNull("spec"),
          pod.getOrNull("spec")) && Meta.labels(old).equals(Meta.labels(pod))) {
        // only its status changed (the condition this scheduler wrote)
        return;
      }
      queue.add(k);
    }

    @Override
    public void onDelete(MapValue pod) {
      track(pod, null);
      String k = key(pod);
      usage.remove(Meta.metaString(pod, "uid"));
      assumed.remove(k);
      unschedulable.remove(k);
      if (!Nested.str(pod, "spec", "nodeName").isEmpty()) {
        retryUnschedulable();
      }
    }
  }

  private final class NodeHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue node) {
      retryUnschedulable();
    }

    @Override
    public void onUpdate(MapValue old, MapValue node) {
      if (!Objects.equals(old.getOrNull("spec"), node.getOrNull("spec"))
          || !Meta.labels(old).equals(Meta.labels(node))
          || !Objects.equals(Nested.getOrNull(old, "status", "allocatable"),
              Nested.getOrNull(node, "status", "allocatable"))) {
        retryUnschedulable();
      }
    }

    @Override
    public void onDelete(MapValue node) {
      // fewer Nodes never make a Pod schedulable
    }
  }

  /** One scheduling cycle for the Pod at {@code key}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    Optional<MapValue> cached = pods.get(key.substring(0, slash), key.substring(slash + 1));
    if (cached.isEmpty() || !pending(cached.get()) || assumed.containsKey(key)) {
      return Outcome.FORGET;
    }
    MapValue pod = cached.get();
    long changes = clusterChanges.get();
    if (!Nested.list(pod, "spec", "schedulingGates").isEmpty()) {
      // kube's SchedulingGates PreEnqueue: the apiserver wrote SchedulingGated already
      return Outcome.FORGET;
    }
    List<NodeInfo> infos = snapshot();
    if (infos.isEmpty()) {
      unschedulable(pod, NO_NODES, Optional.empty());
      if (clusterChanges.get() != changes) {
        queue.add(key);
      }
      return Outcome.FORGET;
    }
    SchedulingCycle cycle = new SchedulingCycle(pod, infos, this::namespaceLabels,
        nominated(pod));
    Map<String, Filters.Rejection> rejected = new LinkedHashMap<>();
    List<NodeInfo> feasible = new ArrayList<>();
    for (NodeInfo n : infos) {
      Optional<Filters.Rejection> r = cycle.filter(n);
      if (r.isPresent()) {
        rejected.put(n.name, r.get());
      } else {
        feasible.add(n);
      }
    }
    if (feasible.isEmpty()) {
      Preemption.Result preemption = Preemption.evaluate(cycle, rejected, budgets.list());
      Optional<String> nominate;
      if (preemption.candidate().isPresent()) {
        preempt(pod, preemption.candidate().get());
        nominate = Optional.of(preemption.candidate().get().node());
      } else {
        // kube clears the nomination when no Node is a candidate, keeps it when not eligible
        nominate = preemption.message().endsWith(Preemption.WAITING) ? Optional.empty()
            : Optional.of("");
      }
      unschedulable(pod, FitMessages.fitError(infos.size(), rejected, preemption.message()),
          nominate);
      if (clusterChanges.get() != changes) {
        queue.add(key);
      }
      return Outcome.FORGET;
    }
    InterPodAffinityScore affinity = new InterPodAffinityScore(pod, infos,
        this::namespaceLabels);
    Map<String, Long> affinityScores = affinity.skip() ? Map.of()
        : affinity.normalized(feasible);
    PodTopologySpreadScore spread = new PodTopologySpreadScore(pod, infos, feasible,
        Nested.list(pod, "spec", "topologySpreadConstraints").isEmpty()
            ? Optional.of(defaultSelector(pod)) : Optional.empty());
    Map<String, Long> spreadScores = spread.skip() ? Map.of() : spread.normalized(feasible);
    // each Node scored once (a comparator would score both sides of every comparison)
    Map<String, Long> total = new java.util.HashMap<>();
    for (NodeInfo n : feasible) {
      total.put(n.name, Scores.leastAllocated(pod, n)
          + PodTopologySpreadScore.WEIGHT * spreadScores.getOrDefault(n.name, 0L)
          + InterPodAffinityScore.WEIGHT * affinityScores.getOrDefault(n.name, 0L));
    }
    NodeInfo best = feasible.stream()
        .max(Comparator.comparingLong((NodeInfo n) -> total.get(n.name))
            .thenComparing(n -> n.name, Comparator.reverseOrder()))
        .orElseThrow();
    bind(pod, key, best.name);
    return Outcome.FORGET;
  }

  /**
   * kube's {@code helper.DefaultSelector}: the labels the Pod's Services select (a Service
   * without a selector selects nothing), merged with its controlling ReplicationController's
   * selector, or with the requirements of its controlling ReplicaSet's or StatefulSet's
   * selector added; a controller that is not cached adds nothing.
   */
  LabelSelector defaultSelector(MapValue pod) {
    String namespace = Meta.metaString(pod, "namespace");
    Map<String, String> podLabels = Meta.labels(pod);
    Map<String, String> merged = new java.util.TreeMap<>();
    for (MapValue service : services.list(namespace)) {
      Value selector = Nested.getOrNull(service, "spec", "selector");
      if (selector instanceof MapValue map) {
        Map<String, String> labels = stringMap(map);
        if (LabelSelector.ofEquals(labels).matches(podLabels)) {
          merged.putAll(labels);
        }
      }
    }
    List<LabelSelector.Requirement> requirements =
        new ArrayList<>(LabelSelector.ofEquals(merged).requirements());
    for (Value ref : Nested.list(pod, "metadata", "ownerReferences")) {
      if (!Nested.bool(ref, "controller")) {
        continue;
      }
      String owner = Nested.str(ref, "apiVersion") + "/" + Nested.str(ref, "kind");
      String name = Nested.str(ref, "name");
      switch (owner) {
        case "v1/ReplicationController" -> replicationControllers.get(namespace, name)
            .ifPresent(rc -> {
              if (Nested.getOrNull(rc, "spec", "selector") instanceof MapValue map) {
                merged.putAll(stringMap(map));
              }
              requirements.clear();
              requirements.addAll(LabelSelector.ofEquals(merged).requirements());
            });
        case "apps/v1/ReplicaSet" -> replicaSets.get(namespace, name)
            .flatMap(Informer::specSelector)
            .ifPresent(selector -> requirements.addAll(selector.requirements()));
        case "apps/v1/StatefulSet" -> statefulSets.get(namespace, name)
            .flatMap(Informer::specSelector)
            .ifPresent(selector -> requirements.addAll(selector.requirements()));
        default -> {
          // not owned by a controller kube spreads by default
        }
      }
      break;
    }
    return LabelSelector.of(requirements);
  }

  private static Map<String, String> stringMap(MapValue map) {
    Map<String, String> out = new java.util.TreeMap<>();
    for (int i = 0; i < map.size(); i++) {
      out.put(map.keyAt(i), Nested.str(map.valueAt(i)));
    }
    return out;
  }

  private Map<String, String> namespaceLabels(String namespace) {
    return namespaces.get("", namespace).map(Meta::labels).orElse(Map.of());
  }

  /** The other pending Pods nominated to a Node with at least {@code pod}'s priority. */
  private Map<String, List<MapValue>> nominated(MapValue pod) {
    Map<String, List<MapValue>> out = new java.util.HashMap<>();
    long priority = PodSelectors.priority(pod);
    for (String k : unschedulable) {
      int slash = k.indexOf('/');
      Optional<MapValue> other = pods.get(k.substring(0, slash), k.substring(slash + 1));
      if (other.isEmpty() || !pending(other.get())) {
        continue;
      }
      String node = Nested.str(other.get(), "status", "nominatedNodeName");
      if (!node.isEmpty() && PodSelectors.priority(other.get()) >= priority) {
        out.computeIfAbsent(node, n -> new ArrayList<>()).add(other.get());
      }
    }
    return out;
  }

  /**
   * kube's {@code prepareCandidate}: each victim gets the {@code DisruptionTarget} condition,
   * is deleted and gets a {@code Preempted} Event; lower-priority Pods nominated to the Node
   * lose their nomination.
   */
  private void preempt(MapValue pod, Preemption.Candidate candidate) {
    for (MapValue victim : candidate.victims()) {
      String namespace = Meta.metaString(victim, "namespace");
      String name = Meta.metaString(victim, "name");
      long generation = Meta.generation(victim);
      MapValue condition = Obj.map("type", "DisruptionTarget",
          "observedGeneration", generation == 0 ? null : generation, "status", "True",
          "lastProbeTime", Value.nullValue(),
          "lastTransitionTime", Meta.formatTime(context.clock().instant()),
          "reason", Preemption.REASON,
          "message", NAME + ": preempting to accommodate a higher priority pod");
      try {
        patchStatus(victim, Obj.map("conditions", List.of(condition)));
        context.client(PODS, USER).namespace(namespace).delete(name);
      } catch (NotFoundException e) {
        // gone already: it makes room all the same
        LOG.debug("victim {}/{} already deleted", namespace, name);
        continue;
      }
      events.record(victim, Optional.of(pod), "Normal", "Preempted", "Preempting",
          "Preempted by pod "
          + Meta.metaString(pod, "uid") + " on node " + candidate.node());
    }
    long priority = PodSelectors.priority(pod);
    for (MapValue other : pods.list()) {
      if (pending(other) && PodSelectors.priority(other) < priority
          && Nested.str(other, "status", "nominatedNodeName").equals(candidate.node())) {
        try {
          patchStatus(other, Obj.map("nominatedNodeName", Value.nullValue()));
        } catch (NotFoundException | ConflictException e) {
          LOG.debug("clearing the nomination of {} failed: {}", key(other), e.getMessage());
        }
      }
    }
  }

  private void patchStatus(MapValue pod, MapValue status) {
    context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH, PODS)
        .namespace(Meta.metaString(pod, "namespace")).name(Meta.metaString(pod, "name"))
        .subresource("status").patch(PatchType.STRATEGIC_MERGE_PATCH, Json.write(Obj.map(
            "metadata", Obj.map("uid", Meta.metaString(pod, "uid")), "status", status)))
        .user(USER).fieldManager(FIELD_MANAGER).build()).orThrow();
  }

  /**
   * The Nodes, sorted by name, with the Pods assigned to them or assumed there. A Node's info
   * is built again only when the Node or its assigned Pods changed since the last cycle (kube's
   * scheduler cache updates its snapshot incrementally the same way); assumed Pods are added to
   * a copy.
   */
  private List<NodeInfo> snapshot() {
    Map<String, NodeInfo> byName = new java.util.TreeMap<>();
    Map<String, List<MapValue>> assumedByNode = new java.util.HashMap<>();
    for (Map.Entry<String, MapValue> e : assumed.entrySet()) {
      if (!isAssigned(e.getKey())) {
        assumedByNode.computeIfAbsent(Nested.str(e.getValue(), "spec", "nodeName"),
            n -> new ArrayList<>()).add(e.getValue());
      }
    }
    java.util.Set<String> present = new java.util.HashSet<>();
    for (MapValue n : nodes.list()) {
      String name = Meta.metaString(n, "name");
      present.add(name);
      NodeInfo info = info(name, n);
      List<MapValue> extra = assumedByNode.get(name);
      byName.put(name, extra == null ? info : info.with(List.of(), extra));
    }
    infos.keySet().retainAll(present);
    return new ArrayList<>(byName.values());
  }

  /** The info of {@code node}, from the cache while it and its assigned Pods are unchanged. */
  private NodeInfo info(String name, MapValue node) {
    java.util.concurrent.atomic.AtomicLong counter = assignedVersions.get(name);
    // read before the Pods: a change made while they are read then shows as a newer count
    long version = counter == null ? 0 : counter.get();
    CachedInfo cached = infos.get(name);
    if (cached != null && cached.node() == node && cached.version() == version) {
      return cached.info();
    }
    // quantities parsed once per Node version, not once per cycle
    Map<String, Long> amounts = cached != null && cached.node() == node
        ? cached.info().allocatable
        : Map.copyOf(Resources.of(Nested.getOrNull(node, "status", "allocatable")));
    NodeInfo info = new NodeInfo(node, amounts);
    for (Assigned a : assignedPods.getOrDefault(name, Map.of()).values()) {
      info.add(a.pod(), a.usage());
    }
    infos.put(name, new CachedInfo(node, version, info));
    return info;
  }

  /** Whether the informer shows the Pod at {@code key} bound and not terminated. */
  private boolean isAssigned(String key) {
    int slash = key.indexOf('/');
    return pods.get(key.substring(0, slash), key.substring(slash + 1))
        .map(p -> !Nested.str(p, "spec", "nodeName").isEmpty() && !terminal(p)).orElse(false);
  }

  private void bind(MapValue pod, String key, String node) {
    String namespace = Meta.metaString(pod, "namespace");
    String name = Meta.metaString(pod, "name");
    assumed.put(key, Nested.set(pod, Value.of(node), "spec", "nodeName"));
    MapValue binding = Obj.map("apiVersion", "v1", "kind", "Binding",
        "metadata", Obj.map("name", name, "namespace", namespace,
            "uid", Meta.metaString(pod, "uid")),
        "target", Obj.map("kind", "Node", "name", node));
    try {
      volumeBinding.preBind(pod, node);
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS)
          .namespace(namespace).name(name).subresource("binding").body(binding)
          .user(USER).fieldManager(FIELD_MANAGER).build()).orThrow();
    } catch (NotFoundException | ConflictException e) {
      // deleted, replaced or bound by someone else meanwhile: nothing to schedule
      assumed.remove(key);
      LOG.debug("binding {} to {} failed: {}", key, node, e.getMessage());
      return;
    } catch (RuntimeException e) {
      assumed.remove(key);
      throw e;
    }
    unschedulable.remove(key);
    events.record(pod, "Normal", "Scheduled", "Binding",
        "Successfully assigned " + namespace + "/" + name + " to " + node);
  }

  /**
   * kube's {@code handleSchedulingFailure}: the PodScheduled condition and, when
   * {@code nominate} is present, {@code nominatedNodeName} ("" clears it), patched into the
   * status when they differ, and a FailedScheduling Event.
   */
  private void unschedulable(MapValue pod, String message, Optional<String> nominate) {
    String key = key(pod);
    unschedulable.add(key);
    Value current = null;
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("PodScheduled")) {
        current = c;
      }
    }
    boolean same = current != null && Nested.str(current, "status").equals("False")
        && Nested.str(current, "reason").equals("Unschedulable")
        && Nested.str(current, "message").equals(message);
    boolean renominate = nominate.isPresent()
        && !nominate.get().equals(Nested.str(pod, "status", "nominatedNodeName"));
    if (!same || renominate) {
      String transition = current != null && Nested.str(current, "status").equals("False")
          ? Nested.str(current, "lastTransitionTime")
          : Meta.formatTime(context.clock().instant());
      long generation = Meta.generation(pod);
      MapValue condition = Obj.map("type", "PodScheduled",
          "observedGeneration", generation == 0 ? null : generation,
          "status", "False", "lastProbeTime", Value.nullValue(),
          "lastTransitionTime", transition, "reason", "Unschedulable", "message", message);
      try {
        patchStatus(pod, Obj.map("conditions", List.of(condition), "nominatedNodeName",
            renominate ? (nominate.get().isEmpty() ? Value.nullValue() : nominate.get())
                : null));
      } catch (NotFoundException e) {
        unschedulable.remove(key);
        return;
      } catch (StatusException e) {
        if (e.status().code() == 409) {
          // the Pod changed meanwhile: its update event brings it back
          return;
        }
        throw e;
      }
    }
    events.record(pod, "Warning", "FailedScheduling", "Scheduling", message);
  }
}
