/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.daemon;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.ControllerHistory;
import io.apiserver4j.controllers.internal.ControllerRefManager;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Expectations;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.IntOrPercent;
import io.apiserver4j.controllers.internal.OwnedPodHandler;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code DaemonSetsController} (pkg/controller/daemon: daemon_controller.go, update.go):
 * each sync finds or creates the set's current ControllerRevision, then makes one daemon Pod
 * per Node that should run one ({@link DaemonSetUtils#nodeShouldRunDaemonPod}), each created
 * with a required node affinity on {@code metadata.name} for the scheduler, deletes Pods on
 * Nodes that should not run them (and failed or surplus ones), rolls out template changes with
 * RollingUpdate's maxUnavailable or maxSurge (OnDelete waits for deletions), trims the
 * revision history and writes the status. Expectations keep a set from being synced again
 * before the informer has seen its last sync's creations and deletions.
 */
public final class DaemonSetController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonSetController.class);
  /** kube's {@code BurstReplicas} for daemon sets. */
  static final int BURST_REPLICAS = 250;
  /** kube's {@code --concurrent-daemonset-syncs} default. */
  private static final int WORKERS = 2;
  private static final GroupVersionResource DAEMONSETS =
      new GroupVersionResource("apps", "v1", "daemonsets");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource REVISIONS =
      new GroupVersionResource("apps", "v1", "controllerrevisions");

  private final ControllerContext context;
  private final UserInfo user;
  private final Informer sets;
  private final Informer pods;
  private final Informer nodes;
  private final Informer revisions;
  private final WorkQueue<String> queue;
  private final Expectations expectations;
  private final ControllerRefManager refs;
  private final ControllerHistory history;
  private final EventRecorder events;
  private Workers workers;

  private DaemonSetController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount("daemon-set-controller");
    this.expectations = context.newExpectations();
    this.queue = context.newQueue("daemonset");
    this.events = new EventRecorder(context, user, "daemonset-controller");
    this.refs = new ControllerRefManager("apps/v1", "DaemonSet", this::setClient,
        this::podClient);
    this.history = new ControllerHistory("apps/v1", "DaemonSet",
        ns -> context.client(REVISIONS, user).namespace(ns));
    this.sets = context.informers().informer(new GroupResource("apps", "daemonsets"));
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    this.revisions = context.informers().informer(new GroupResource("apps",
        "controllerrevisions"));
    sets.addHandler(new SetHandler());
    pods.addHandler(OwnedPodHandler.builder(sets, "DaemonSet", queue).expectations(expectations)
        .terminatingUpdate(OwnedPodHandler.TerminatingUpdate.AS_DELETE)
        .readyMargin(Duration.ofSeconds(1)).build());
    nodes.addHandler(new NodeHandler());
  }

  /** The {@code daemonset} controller, as user {@code daemon-set-controller}. */
  public static Controller create(ControllerContext context) {
    return new DaemonSetController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("daemonset", queue, WORKERS, this::sync);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  // ---- event handlers ----

  private final class SetHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue object) {
      queue.add(Pods.key(object));
    }

    @Override
    public void onUpdate(MapValue old, MapValue object) {
      if (!Meta.metaString(old, "uid").equals(Meta.metaString(object, "uid"))) {
        expectations.delete(Pods.key(old));
      }
      queue.add(Pods.key(object));
    }

    @Override
    public void onDelete(MapValue object) {
      expectations.delete(Pods.key(object));
      queue.add(Pods.key(object));
    }
  }

  /** Node changes that can change where daemon Pods belong requeue every set. */
  private final class NodeHandler implements ResourceEventHandler {
    @Override
    public void onAdd(MapValue node) {
      enqueueAll();
    }

    @Override
    public void onUpdate(MapValue old, MapValue node) {
      if (!Meta.labels(old).equals(Meta.labels(node))
          || !Objects.equals(Nested.getOrNull(old, "spec"), Nested.getOrNull(node, "spec"))
          || !Objects.equals(Nested.getOrNull(old, "status", "conditions"),
              Nested.getOrNull(node, "status", "conditions"))) {
        enqueueAll();
      }
    }

    @Override
    public void onDelete(MapValue node) {
      enqueueAll();
    }
  }

  private void enqueueAll() {
    for (MapValue ds : sets.list()) {
      queue.add(Pods.key(ds));
    }
  }

  // ---- sync (daemon_controller.go) ----

  /** kube's {@code syncDaemonSet}. */
  private Outcome sync(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    Optional<MapValue> cached = sets.get(namespace, key.substring(slash + 1));
    if (cached.isEmpty()) {
      expectations.delete(key);
      return Outcome.FORGET;
    }
    MapValue ds = cached.get();
    Optional<LabelSelector> selector = Informer.specSelector(ds);
    if (selector.isEmpty() || selector.get().isEverything()) {
      // kube: a selector that selects all Pods is refused
      LOG.warn("DaemonSet {} has a selector that selects nothing or everything", key);
      if (selector.isPresent()) {
        events.warning(involved(ds), "SelectingAll",
            "This daemon set is selecting all pods. A non-empty selector is required.");
      }
      return Outcome.FORGET;
    }
    if (Nested.has(ds, "metadata", "deletionTimestamp")) {
      return Outcome.FORGET;
    }
    List<MapValue> nodeList = nodes.list();
    Optional<Current> cur = constructHistory(ds, selector.get());
    if (cur.isEmpty()) {
      // a hash collision was recorded in the status; its update event syncs again
      return Outcome.FORGET;
    }
    String hash = Meta.labels(cur.get().revision()).getOrDefault(DaemonSetUtils.HASH_LABEL, "");
    if (!expectations.satisfied(key)) {
      updateStatus(ds, selector.get(), nodeList, hash, false);
      return Outcome.FORGET;
    }
    StatusException failure = null;
    try {
      manage(ds, selector.get(), nodeList, hash);
      if (expectations.satisfied(key)
          && Nested.str(ds, "spec", "updateStrategy", "type").equals("RollingUpdate")) {
        rollingUpdate(ds, selector.get(), nodeList, hash);
      }
      cleanupHistory(ds, selector.get(), cur.get().old());
    } catch (StatusException e) {
      failure = e;
    }
    updateStatus(ds, selector.get(), nodeList, hash, true);
    if (failure != null) {
      throw failure;
    }
    return Outcome.FORGET;
  }

  /** The set's current revision and its other revisions. */
  private record Current(MapValue revision, List<MapValue> old) {}

  /**
   * kube's {@code constructHistory}: the revisions the set controls (orphans adopted), the one
   * matching its template as current (renumbered to be the newest, duplicates deleted), or a
   * new snapshot; empty after recording a hash collision.
   */
  private Optional<Current> constructHistory(MapValue ds, LabelSelector selector) {
    String namespace = Meta.metaString(ds, "namespace");
    List<MapValue> controlled = new ArrayList<>();
    for (MapValue r : ControllerHistory.owned(ds, selector, revisions.list(namespace))) {
      controlled.add(Pods.controllerRef(r).isEmpty() ? history.adopt(ds, r) : r);
    }
    MapValue patch = DaemonSetUtils.patch(ds);
    List<MapValue> current = new ArrayList<>();
    List<MapValue> old = new ArrayList<>();
    for (MapValue r : controlled) {
      if (patch.equals(r.getOrNull("data"))) {
        current.add(r);
      } else {
        old.add(r);
      }
    }
    long next = old.stream().mapToLong(ControllerHistory::revision).max().orElse(0) + 1;
    MapValue cur;
    if (current.isEmpty()) {
      Optional<MapValue> snap = snapshot(ds, next);
      if (snap.isEmpty()) {
        return Optional.empty();
      }
      cur = snap.get();
    } else {
      List<MapValue> sorted = ControllerHistory.sorted(current);
      cur = sorted.get(sorted.size() - 1);
      for (MapValue dup : sorted.subList(0, sorted.size() - 1)) {
        history.delete(dup);
      }
      if (ControllerHistory.revision(cur) < next) {
        cur = history.renumber(cur, next);
      }
    }
    return Optional.of(new Current(cur, old));
  }

  /** kube's {@code snapshot}: a new revision named by the template hash. */
  private Optional<MapValue> snapshot(MapValue ds, long revision) {
    String hash = DaemonSetUtils.templateHash(ds);
    MapValue labels = Nested.map(ds, "spec", "template", "metadata", "labels")
        .with(DaemonSetUtils.HASH_LABEL, Value.of(hash));
    MapValue.Builder meta = MapValue.builder();
    meta.put("name", Value.of(DaemonSetUtils.revisionName(ds, hash)));
    meta.put("namespace", Value.of(Meta.metaString(ds, "namespace")));
    meta.put("labels", labels);
    Value annotations = Nested.getOrNull(ds, "metadata", "annotations");
    if (annotations != null) {
      meta.put("annotations", annotations);
    }
    meta.put("ownerReferences", ListValue.of(List.of(history.controllerRef(ds))));
    MapValue body = MapValue.ofEntries("apiVersion", Value.of("apps/v1"),
        "kind", Value.of("ControllerRevision"), "metadata", meta.build(),
        "data", DaemonSetUtils.patch(ds), "revision", Value.of(revision));
    ResourceClient client = context.client(REVISIONS, user).namespace(
        Meta.metaString(ds, "namespace"));
    try {
      return Optional.of(client.create(body));
    } catch (AlreadyExistsException e) {
      MapValue existing = client.get(Meta.metaString(body, "name"));
      if (DaemonSetUtils.patch(ds).equals(existing.getOrNull("data"))) {
        return Optional.of(existing);
      }
      // a hash collision: count it in the status so the next hash differs
      long count = Nested.integer(ds, "status", "collisionCount") + 1;
      writeStatus(ds, Nested.map(ds, "status").with("collisionCount", Value.of(count)));
      return Optional.empty();
    }
  }

  /** kube's {@code cleanupHistory}: old revisions no Pod uses, oldest first, beyond the limit. */
  private void cleanupHistory(MapValue ds, LabelSelector selector, List<MapValue> old) {
    long limit = Nested.has(ds, "spec", "revisionHistoryLimit")
        ? Nested.integer(ds, "spec", "revisionHistoryLimit") : 10;
    long toKill = old.size() - limit;
    if (toKill <= 0) {
      return;
    }
    Set<String> live = new HashSet<>();
    for (List<MapValue> onNode : nodesToDaemonPods(ds, selector).values()) {
      for (MapValue pod : onNode) {
        String h = Meta.labels(pod).getOrDefault(DaemonSetUtils.HASH_LABEL, "");
        if (!h.isEmpty()) {
          live.add(h);
        }
      }
    }
    for (MapValue r : ControllerHistory.sorted(old)) {
      if (toKill <= 0) {
        break;
      }
      if (live.contains(Meta.labels(r).getOrDefault(DaemonSetUtils.HASH_LABEL, ""))) {
        continue;
      }
      history.delete(r);
      toKill--;
    }
  }

  /**
   * kube's {@code getNodesToDaemonPods}: the set's claimed Pods by target Node, terminal Pods
   * being deleted left out.
   */
  private Map<String, List<MapValue>> nodesToDaemonPods(MapValue ds, LabelSelector selector) {
    List<MapValue> candidates = pods.list(Meta.metaString(ds, "namespace"));
    Map<String, List<MapValue>> out = new LinkedHashMap<>();
    for (MapValue pod : refs.claim(ds, selector, candidates)) {
      String phase = Nested.str(pod, "status", "phase");
      if (Nested.has(pod, "metadata", "deletionTimestamp")
          && (phase.equals("Failed") || phase.equals("Succeeded"))) {
        continue;
      }
      Optional<String> node = DaemonSetUtils.targetNodeName(pod);
      if (node.isEmpty()) {
        continue;
      }
      out.computeIfAbsent(node.get(), n -> new ArrayList<>()).add(pod);
    }
    return out;
  }

  /** kube's {@code manage}: the Nodes that need a Pod and the Pods to delete. */
  private void manage(MapValue ds, LabelSelector selector, List<MapValue> nodeList,
      String hash) {
    Map<String, List<MapValue>> byNode = nodesToDaemonPods(ds, selector);
    List<String> needing = new ArrayList<>();
    List<MapValue> toDelete = new ArrayList<>();
    Set<String> nodeNames = new HashSet<>();
    for (MapValue node : nodeList) {
      nodeNames.add(Meta.metaString(node, "name"));
      podsShouldBeOnNode(ds, node, byNode.get(Meta.metaString(node, "name")), hash, needing,
          toDelete);
    }
    // kube's getUnscheduledPodsWithoutNode: unscheduled Pods aimed at a Node that is gone
    byNode.forEach((node, onNode) -> {
      if (!nodeNames.contains(node)) {
        for (MapValue pod : onNode) {
          if (Nested.str(pod, "spec", "nodeName").isEmpty()) {
            toDelete.add(pod);
          }
        }
      }
    });
    syncNodes(ds, toDelete, needing, hash);
  }

  /** kube's {@code podsShouldBeOnNode}. */
  private void podsShouldBeOnNode(MapValue ds, MapValue node, List<MapValue> daemonPods,
      String hash, List<String> needing, List<MapValue> toDelete) {
    DaemonSetUtils.ShouldRun should = DaemonSetUtils.nodeShouldRunDaemonPod(node, ds);
    boolean exists = daemonPods != null && !daemonPods.isEmpty();
    if (should.shouldRun() && !exists) {
      needing.add(Meta.metaString(node, "name"));
    } else if (should.shouldContinueRunning() && exists) {
      List<MapValue> running = new ArrayList<>();
      for (MapValue pod : daemonPods) {
        if (Nested.has(pod, "metadata", "deletionTimestamp")) {
          continue;
        }
        String phase = Nested.str(pod, "status", "phase");
        if (phase.equals("Failed") || phase.equals("Succeeded")) {
          // kube backs off repeated failures per node; the rate-limited queue does here
          String which = Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name")
              + " on node " + Meta.metaString(node, "name");
          if (phase.equals("Failed")) {
            events.warning(involved(ds), "FailedDaemonPod",
                "Found failed daemon pod " + which + ", will try to kill it");
          } else {
            events.normal(involved(ds), "SucceededDaemonPod",
                "Found succeeded daemon pod " + which + ", will try to delete it");
          }
          toDelete.add(pod);
        } else {
          running.add(pod);
        }
      }
      if (running.size() <= 1) {
        return;
      }
      running.sort(BY_CREATION_AND_PHASE);
      if (!allowsSurge(ds)) {
        toDelete.addAll(running.subList(1, running.size()));
        return;
      }
      MapValue oldestNew = null;
      MapValue oldestOld = null;
      for (MapValue pod : running) {
        boolean isNew = hash.equals(Meta.labels(pod).get(DaemonSetUtils.HASH_LABEL));
        if (isNew && oldestNew == null) {
          oldestNew = pod;
        } else if (!isNew && oldestOld == null) {
          oldestOld = pod;
        } else {
          toDelete.add(pod);
        }
      }
      if (oldestNew != null && oldestOld != null) {
        if (!Pods.ready(oldestOld) || Pods.available(oldestNew,
            Nested.integer(ds, "spec", "minReadySeconds"), context.clock().instant())) {
          toDelete.add(oldestOld);
        }
      }
    } else if (!should.shouldContinueRunning() && exists) {
      for (MapValue pod : daemonPods) {
        if (!Nested.has(pod, "metadata", "deletionTimestamp")) {
          toDelete.add(pod);
        }
      }
    }
  }

  /** kube's {@code podByCreationTimestampAndPhase}: older first; same time, Running first. */
  static final Comparator<MapValue> BY_CREATION_AND_PHASE = Comparator
      .comparing((MapValue p) -> Pods.time(p, "metadata", "creationTimestamp")
          .orElse(Instant.MIN))
      .thenComparing(p -> Nested.str(p, "status", "phase").equals("Running") ? 0 : 1)
      .thenComparing(p -> Meta.metaString(p, "name"));

  static boolean allowsSurge(MapValue ds) {
    Value surge = Nested.getOrNull(ds, "spec", "updateStrategy", "rollingUpdate", "maxSurge");
    return Nested.str(ds, "spec", "updateStrategy", "type").equals("RollingUpdate")
        && surge != null && IntOrPercent.scaled(surge, 100, IntOrPercent.Rounding.UP, 0) != 0;
  }

  /** kube's {@code syncNodes}: creations in slow-start batches, then deletions, burst-capped. */
  private void syncNodes(MapValue ds, List<MapValue> toDelete, List<String> needing,
      String hash) {
    String key = Pods.key(ds);
    List<String> create = needing.subList(0, Math.min(needing.size(), BURST_REPLICAS));
    List<MapValue> delete = toDelete.subList(0, Math.min(toDelete.size(), BURST_REPLICAS));
    if (create.isEmpty() && delete.isEmpty()) {
      return;
    }
    if (!create.isEmpty()) {
      expectations.expectCreations(key, create.size());
    } else {
      expectations.expectDeletions(key, delete.stream().map(Pods::key).toList());
    }
    MapValue template = DaemonSetUtils.podTemplate(ds, hash);
    StatusException failure = null;
    int next = 0;
    for (int batch = Math.min(create.size(), 1); batch > 0 && failure == null;
        batch = Math.min(2 * batch, create.size() - next)) {
      for (int i = 0; i < batch; i++, next++) {
        try {
          MapValue pod = createPod(ds, template, create.get(next));
          events.normal(involved(ds), "SuccessfulCreate",
              "Created pod: " + Meta.metaString(pod, "name"));
        } catch (StatusException e) {
          if (e.status().causes().stream()
              .noneMatch(c -> c.type().equals("NamespaceTerminating"))) {
            events.warning(involved(ds), "FailedCreate", "Error creating: " + e.getMessage());
          }
          expectations.creationObserved(key);
          if (!(e instanceof AlreadyExistsException) && failure == null) {
            failure = e;
          }
        }
      }
    }
    for (int i = next; i < create.size(); i++) {
      expectations.creationObserved(key);
    }
    if (!delete.isEmpty() && !create.isEmpty()) {
      // kube sets both counts at once; the creations were set above
      expectations.expectDeletions(key, delete.stream().map(Pods::key).toList());
    }
    for (MapValue pod : delete) {
      try {
        podClient(Meta.metaString(pod, "namespace")).delete(Meta.metaString(pod, "name"));
        events.normal(involved(ds), "SuccessfulDelete",
            "Deleted pod: " + Meta.metaString(pod, "name"));
      } catch (NotFoundException e) {
        expectations.deletionObserved(key, Pods.key(pod));
      } catch (StatusException e) {
        events.warning(involved(ds), "FailedDelete", "Error deleting: " + e.getMessage());
        expectations.deletionObserved(key, Pods.key(pod));
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** kube's {@code CreatePods} with the node-name affinity of {@code nodeName}. */
  private MapValue createPod(MapValue ds, MapValue template, String nodeName) {
    MapValue tmeta = Nested.map(template, "metadata");
    MapValue.Builder meta = MapValue.builder();
    for (String k : List.of("labels", "annotations", "finalizers")) {
      Value v = tmeta.getOrNull(k);
      if (v != null) {
        meta.put(k, v);
      }
    }
    meta.put("generateName", Value.of(Meta.metaString(ds, "name") + "-"));
    meta.put("namespace", Value.of(Meta.metaString(ds, "namespace")));
    meta.put("ownerReferences", ListValue.of(List.of(refs.controllerRef(ds))));
    MapValue pod = MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Pod"),
        "metadata", meta.build(), "spec", DaemonSetUtils.withNodeNameAffinity(
            Nested.map(template, "spec"), nodeName));
    return podClient(Meta.metaString(ds, "namespace")).create(pod);
  }

  /** The set as kube's recorder references it. */
  private static EventRecorder.InvolvedObject involved(MapValue ds) {
    return EventRecorder.InvolvedObject.of("apps/v1", "DaemonSet", ds);
  }

  // ---- update.go ----

  /** kube's {@code rollingUpdate}: replace old Pods within maxUnavailable, or surge. */
  private void rollingUpdate(MapValue ds, LabelSelector selector, List<MapValue> nodeList,
      String hash) {
    Map<String, List<MapValue>> byNode = nodesToDaemonPods(ds, selector);
    int desired = 0;
    Map<String, MapValue> nodesByName = new LinkedHashMap<>();
    for (MapValue node : nodeList) {
      nodesByName.put(Meta.metaString(node, "name"), node);
      if (DaemonSetUtils.nodeShouldRunDaemonPod(node, ds).shouldRun()) {
        desired++;
        byNode.putIfAbsent(Meta.metaString(node, "name"), List.of());
      }
    }
    Value ru = Nested.getOrNull(ds, "spec", "updateStrategy", "rollingUpdate");
    long maxUnavailable = IntOrPercent.scaled(Nested.getOrNull(ru, "maxUnavailable"), desired,
        IntOrPercent.Rounding.UP, 0);
    long maxSurge = IntOrPercent.scaled(Nested.getOrNull(ru, "maxSurge"), desired,
        IntOrPercent.Rounding.UP, 0);
    if (desired > 0 && maxUnavailable == 0 && maxSurge == 0) {
      maxUnavailable = 1;
    }
    long minReady = Nested.integer(ds, "spec", "minReadySeconds");
    Instant now = context.clock().instant();
    Optional<Long> generation = DaemonSetUtils.templateGeneration(ds);
    if (maxSurge == 0) {
      long unavailable = 0;
      List<MapValue> replacements = new ArrayList<>();
      List<MapValue> candidates = new ArrayList<>();
      for (List<MapValue> onNode : byNode.values()) {
        Optional<MapValue[]> found = updatedPodsOnNode(onNode, hash, generation);
        if (found.isEmpty()) {
          unavailable++;
          continue;
        }
        MapValue newPod = found.get()[0];
        MapValue oldPod = found.get()[1];
        if ((oldPod == null) == (newPod == null)) {
          unavailable++;
        } else if (newPod != null) {
          if (!Pods.available(newPod, minReady, now)) {
            unavailable++;
          }
        } else if (!Pods.available(oldPod, minReady, now)) {
          replacements.add(oldPod);
        } else if (unavailable < maxUnavailable) {
          candidates.add(oldPod);
        }
      }
      long remaining = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.size()));
      List<MapValue> delete = new ArrayList<>(replacements);
      delete.addAll(candidates.subList(0, (int) remaining));
      syncNodes(ds, delete, List.of(), hash);
      return;
    }
    List<MapValue> oldToDelete = new ArrayList<>();
    List<MapValue> shouldNotRun = new ArrayList<>();
    List<String> candidateNodes = new ArrayList<>();
    List<String> allowedNodes = new ArrayList<>();
    long surge = 0;
    long available = 0;
    for (Map.Entry<String, List<MapValue>> e : byNode.entrySet()) {
      Optional<MapValue[]> found = updatedPodsOnNode(e.getValue(), hash, generation);
      if (found.isEmpty()) {
        surge++;
        continue;
      }
      MapValue newPod = found.get()[0];
      MapValue oldPod = found.get()[1];
      if (oldPod != null ? Pods.available(oldPod, minReady, now)
          : newPod != null && Pods.available(newPod, minReady, now)) {
        available++;
      }
      if (oldPod == null) {
        continue;
      }
      MapValue node = nodesByName.get(e.getKey());
      boolean shouldRun = node != null
          && DaemonSetUtils.nodeShouldRunDaemonPod(node, ds).shouldRun();
      if (newPod == null) {
        if (!Pods.available(oldPod, minReady, now)) {
          if (!shouldRun) {
            oldToDelete.add(oldPod);
            continue;
          }
          allowedNodes.add(e.getKey());
        } else {
          if (!shouldRun) {
            shouldNotRun.add(oldPod);
            continue;
          }
          if (surge >= maxSurge) {
            continue;
          }
          candidateNodes.add(e.getKey());
        }
      } else {
        if (!Pods.available(newPod, minReady, now)) {
          surge++;
          continue;
        }
        oldToDelete.add(oldPod);
      }
    }
    long deletable = Math.min(available - desired, shouldNotRun.size());
    if (deletable > 0) {
      oldToDelete.addAll(shouldNotRun.subList(0, (int) deletable));
    }
    long remaining = Math.max(0, Math.min(maxSurge - surge, candidateNodes.size()));
    List<String> create = new ArrayList<>(allowedNodes);
    create.addAll(candidateNodes.subList(0, (int) remaining));
    syncNodes(ds, oldToDelete, create, hash);
  }

  /**
   * kube's {@code findUpdatedPodsOnNode}: the node's one new and one old Pod (either may be
   * null); empty when it has more than one of either.
   */
  private static Optional<MapValue[]> updatedPodsOnNode(List<MapValue> onNode, String hash,
      Optional<Long> generation) {
    MapValue newPod = null;
    MapValue oldPod = null;
    for (MapValue pod : onNode) {
      if (Nested.has(pod, "metadata", "deletionTimestamp")) {
        continue;
      }
      if (DaemonSetUtils.isPodUpdated(pod, hash, generation)) {
        if (newPod != null) {
          return Optional.empty();
        }
        newPod = pod;
      } else {
        if (oldPod != null) {
          return Optional.empty();
        }
        oldPod = pod;
      }
    }
    return Optional.of(new MapValue[] {newPod, oldPod});
  }

  // ---- status ----

  /** kube's {@code updateDaemonSetStatus}. */
  private void updateStatus(MapValue ds, LabelSelector selector, List<MapValue> nodeList,
      String hash, boolean observedGeneration) {
    Map<String, List<MapValue>> byNode = nodesToDaemonPods(ds, selector);
    long desired = 0;
    long current = 0;
    long misscheduled = 0;
    long ready = 0;
    long updated = 0;
    long available = 0;
    long minReady = Nested.integer(ds, "spec", "minReadySeconds");
    Instant now = context.clock().instant();
    Optional<Long> generation = DaemonSetUtils.templateGeneration(ds);
    for (MapValue node : nodeList) {
      boolean shouldRun = DaemonSetUtils.nodeShouldRunDaemonPod(node, ds).shouldRun();
      List<MapValue> onNode = byNode.getOrDefault(Meta.metaString(node, "name"), List.of());
      boolean scheduled = !onNode.isEmpty();
      if (shouldRun) {
        desired++;
        if (!scheduled) {
          continue;
        }
        current++;
        MapValue pod = onNode.stream().sorted(BY_CREATION_AND_PHASE).findFirst().get();
        if (Pods.ready(pod)) {
          ready++;
          if (Pods.available(pod, minReady, now)) {
            available++;
          }
        }
        if (DaemonSetUtils.isPodUpdated(pod, hash, generation)) {
          updated++;
        }
      } else if (scheduled) {
        misscheduled++;
      }
    }
    MapValue old = Nested.map(ds, "status");
    MapValue.Builder b = MapValue.builder();
    b.put("currentNumberScheduled", Value.of(current));
    b.put("numberMisscheduled", Value.of(misscheduled));
    b.put("desiredNumberScheduled", Value.of(desired));
    b.put("numberReady", Value.of(ready));
    long observed = observedGeneration ? Meta.generation(ds)
        : Nested.integer(old, "observedGeneration");
    putNonZero(b, "observedGeneration", observed);
    putNonZero(b, "updatedNumberScheduled", updated);
    putNonZero(b, "numberAvailable", available);
    putNonZero(b, "numberUnavailable", desired - available);
    for (String k : List.of("collisionCount", "conditions")) {
      Value v = old.getOrNull(k);
      if (v != null) {
        b.put(k, v);
      }
    }
    MapValue status = b.build();
    if (!status.equals(old)) {
      writeStatus(ds, status);
    }
    if (minReady > 0 && ready != available) {
      queue.addAfter(Pods.key(ds), Duration.ofSeconds(minReady));
    }
  }

  private static void putNonZero(MapValue.Builder b, String key, long value) {
    if (value != 0) {
      b.put(key, Value.of(value));
    }
  }

  /** kube's {@code storeDaemonSetStatus}: the status subresource, conflicts retried. */
  private void writeStatus(MapValue ds, MapValue status) {
    MapValue current = ds;
    for (int attempt = 0; ; attempt++) {
      try {
        context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, DAEMONSETS)
            .namespace(Meta.metaString(current, "namespace"))
            .name(Meta.metaString(current, "name")).subresource("status")
            .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
            .user(user).body(current.with("status", status)).build()).orThrow();
        return;
      } catch (ConflictException e) {
        if (attempt >= 9) {
          throw e;
        }
        current = setClient(Meta.metaString(current, "namespace"))
            .get(Meta.metaString(current, "name"));
      } catch (NotFoundException e) {
        return;
      }
    }
  }

  private ResourceClient podClient(String namespace) {
    return context.client(PODS, user).namespace(namespace);
  }

  private ResourceClient setClient(String namespace) {
    return context.client(DAEMONSETS, user).namespace(namespace);
  }
}
