/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.tainteviction;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.PodConditions;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's taint eviction controller ({@code pkg/controller/tainteviction/taint_eviction.go}),
 * as user {@code system:serviceaccount:kube-system:taint-eviction-controller}: a Pod bound to a
 * Node with {@code NoExecute} taints it does not all tolerate is deleted at once; one that
 * tolerates them all for a limited time (the least {@code tolerationSeconds} of the tolerations
 * used) is deleted once that time has passed on the server clock since the controller saw the
 * taints (kube's {@code time.Now()} when it handles the Node or Pod update, which on the
 * simulated clock is the taint's {@code timeAdded} when the controller runs with the node
 * lifecycle controller); tolerating forever cancels it. Before deleting, the Pod gets the
 * condition {@code DisruptionTarget=True} (reason {@code DeletionByTaintManager}) through a
 * strategic merge patch of {@code pods/status}, and an Event {@code TaintManagerEviction}
 * "Marking for deletion Pod ns/name" is recorded; a scheduled deletion cancelled because the
 * taint went, the Pod now tolerates it or the Pod was deleted records "Cancelling deletion of Pod
 * ns/name". Its state (the Nodes' NoExecute taints, the scheduled deletions) is kept by one
 * worker, which handles Node and Pod updates in the order they came, as kube's per-node workers
 * do.
 */
public final class TaintEvictionController implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(TaintEvictionController.class);
  /** kube's controller name, its Event source component and its service account. */
  public static final String NAME = "taint-eviction-controller";
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  /** kube's {@code retries} of a deletion. */
  private static final int RETRIES = 5;
  static final String REASON = "DeletionByTaintManager";
  static final String MESSAGE = "Taint manager: deleting due to NoExecute taint";

  private final ControllerContext context;
  private final UserInfo user;
  private final EventRecorder recorder;
  private final Informer pods;
  private final Informer nodes;
  private final WorkQueue<Item> queue;
  /** Per Node, its NoExecute taints when it has some (kube's {@code taintedNodes}). */
  private final Map<String, List<Value>> taintedNodes = new ConcurrentHashMap<>();
  /** Scheduled deletions by Pod key (kube's {@code TimedWorkerQueue}). */
  private final Map<String, Work> works = new ConcurrentHashMap<>();
  private final AtomicLong workIds = new AtomicLong();
  private Workers workers;

  /** What the worker handles. */
  private sealed interface Item permits NodeItem, PodItem, Fire {}

  private record NodeItem(String node) implements Item {}

  private record PodItem(String namespace, String name, String node) implements Item {}

  /** A scheduled deletion whose time came (or an immediate one). */
  private record Fire(String key, long id, boolean immediate) implements Item {}

  /**
   * A scheduled deletion: kube's {@code TimedWorker}; an immediate one has no timer, so (as in
   * kube, where its entry is nil) cancelling it neither stops it nor records an Event.
   */
  record Work(Instant createdAt, Instant fireAt, long id, boolean immediate) {}

  private TaintEvictionController(ControllerContext context) {
    this.context = context;
    this.user = ControllerContext.serviceAccount(NAME);
    this.recorder = new EventRecorder(context, user, NAME);
    this.queue = context.newQueue("noexec_taint");
    // a work's eviction is a timer, which a reset in place drops
    context.onReset(works::clear);
    this.pods = context.informers().informer(new GroupResource("", "pods"));
    this.nodes = context.informers().informer(new GroupResource("", "nodes"));
    pods.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue pod) {
        podUpdated(null, pod);
      }

      @Override
      public void onUpdate(MapValue old, MapValue pod) {
        podUpdated(old, pod);
      }

      @Override
      public void onDelete(MapValue pod) {
        podUpdated(pod, null);
      }
    });
    nodes.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue node) {
        nodeUpdated(null, node);
      }

      @Override
      public void onUpdate(MapValue old, MapValue node) {
        nodeUpdated(old, node);
      }

      @Override
      public void onDelete(MapValue node) {
        nodeUpdated(node, null);
      }
    });
  }

  /** The {@code taint-eviction-controller}. */
  public static Controller create(ControllerContext context) {
    return new TaintEvictionController(context);
  }

  @Override
  public void start() {
    workers = context.startWorkers("noexec_taint", queue, 1, this::process);
  }

  @Override
  public void close() {
    Workers.close(workers, queue);
  }

  /** kube's {@code PodUpdated}: only a change of tolerations or Node matters. */
  private void podUpdated(MapValue old, MapValue pod) {
    MapValue any = pod != null ? pod : old;
    if (old != null && pod != null
        && Nested.list(old, "spec", "tolerations").equals(Nested.list(pod, "spec", "tolerations"))
        && Nested.str(old, "spec", "nodeName").equals(Nested.str(pod, "spec", "nodeName"))) {
      return;
    }
    queue.add(new PodItem(Meta.metaString(any, "namespace"), Meta.metaString(any, "name"),
        Nested.str(any, "spec", "nodeName")));
  }

  /** kube's {@code NodeUpdated}: only a change of NoExecute taints matters. */
  private void nodeUpdated(MapValue old, MapValue node) {
    MapValue any = node != null ? node : old;
    if (old != null && node != null && noExecuteTaints(old).equals(noExecuteTaints(node))) {
      return;
    }
    queue.add(new NodeItem(Meta.metaString(any, "name")));
  }

  /** kube's {@code getNoExecuteTaints}. */
  static List<Value> noExecuteTaints(MapValue node) {
    List<Value> out = new ArrayList<>();
    for (Value t : Nested.list(node, "spec", "taints")) {
      if (Nested.str(t, "effect").equals("NoExecute")) {
        out.add(t);
      }
    }
    return out;
  }

  private Outcome process(Item item) {
    if (item instanceof NodeItem n) {
      handleNodeUpdate(n.node());
    } else if (item instanceof PodItem p) {
      handlePodUpdate(p);
    } else if (item instanceof Fire f) {
      fire(f);
    }
    return Outcome.FORGET;
  }

  private void handlePodUpdate(PodItem item) {
    String key = item.namespace() + "/" + item.name();
    Optional<MapValue> cached = pods.get(item.namespace(), item.name());
    if (cached.isEmpty()) {
      cancelWorkWithEvent(key);
      return;
    }
    MapValue pod = cached.get();
    String node = Nested.str(pod, "spec", "nodeName");
    // keyed by Node as kube's workers are: a Pod moved meanwhile is the newer item's business
    if (!node.equals(item.node()) || node.isEmpty()) {
      return;
    }
    List<Value> taints = taintedNodes.get(node);
    if (taints == null) {
      return;
    }
    processPodOnNode(key, Nested.list(pod, "spec", "tolerations"), taints,
        context.clock().instant());
  }

  private void handleNodeUpdate(String name) {
    Optional<MapValue> cached = nodes.get("", name);
    if (cached.isEmpty()) {
      taintedNodes.remove(name);
      return;
    }
    List<Value> taints = noExecuteTaints(cached.get());
    if (taints.isEmpty()) {
      taintedNodes.remove(name);
    } else {
      taintedNodes.put(name, taints);
    }
    List<MapValue> onNode = podsOn(name);
    if (onNode.isEmpty()) {
      return;
    }
    if (taints.isEmpty()) {
      for (MapValue p : onNode) {
        cancelWorkWithEvent(Pods.key(p));
      }
      return;
    }
    Instant now = context.clock().instant();
    for (MapValue p : onNode) {
      processPodOnNode(Pods.key(p), Nested.list(p, "spec", "tolerations"), taints, now);
    }
  }

  private List<MapValue> podsOn(String node) {
    List<MapValue> out = new ArrayList<>();
    for (MapValue p : pods.list()) {
      if (Nested.str(p, "spec", "nodeName").equals(node)) {
        out.add(p);
      }
    }
    return out;
  }

  /** kube's {@code processPodOnNode}. */
  private void processPodOnNode(String key, List<Value> tolerations, List<Value> taints,
      Instant now) {
    if (taints.isEmpty()) {
      cancelWorkWithEvent(key);
    }
    Optional<List<Value>> used = Tolerations.matching(taints, tolerations);
    if (used.isEmpty()) {
      // deleted right away: whatever was scheduled goes
      cancelWorkWithEvent(key);
      addWork(key, now, now);
      return;
    }
    long seconds = Tolerations.minTolerationSeconds(used.get());
    if (seconds < 0) {
      cancelWorkWithEvent(key);
      return;
    }
    Instant start = now;
    Instant trigger = now.plusSeconds(seconds);
    Work scheduled = works.get(key);
    if (scheduled != null && !scheduled.immediate()) {
      start = scheduled.createdAt();
      if (start.plusSeconds(seconds).isBefore(trigger)) {
        return;
      }
      cancelWorkWithEvent(key);
    }
    addWork(key, start, trigger);
  }

  /** kube's {@code AddWork}: nothing when work for the Pod exists. */
  private void addWork(String key, Instant createdAt, Instant fireAt) {
    if (works.containsKey(key)) {
      return;
    }
    long id = workIds.incrementAndGet();
    boolean immediate = !fireAt.isAfter(createdAt);
    works.put(key, new Work(createdAt, fireAt, id, immediate));
    if (immediate) {
      queue.add(new Fire(key, id, true));
    } else {
      context.timers().scheduleAt(fireAt, () -> queue.add(new Fire(key, id, false)));
    }
  }

  private void cancelWorkWithEvent(String key) {
    Work w = works.remove(key);
    if (w != null && !w.immediate()) {
      recorder.normal(podRef(key), "TaintManagerEviction", "Cancelling deletion of Pod " + key);
    }
  }

  /** The reference kube's recorder gets: apiVersion, kind, namespace and name only. */
  private static InvolvedObject podRef(String key) {
    int slash = key.indexOf('/');
    return new InvolvedObject("v1", "Pod", key.substring(0, slash), key.substring(slash + 1),
        "", "");
  }

  /** The work's time came: kube's {@code deletePodHandler}, then the work is forgotten. */
  private void fire(Fire f) {
    Work w = works.get(f.key());
    if (!f.immediate() && (w == null || w.id() != f.id())) {
      return; // cancelled or replaced
    }
    try {
      recorder.normal(podRef(f.key()), "TaintManagerEviction",
          "Marking for deletion Pod " + f.key());
      StatusException last = null;
      for (int i = 0; i < RETRIES; i++) {
        try {
          addConditionAndDeletePod(f.key());
          last = null;
          break;
        } catch (NotFoundException e) {
          last = null;
          break; // gone already
        } catch (StatusException e) {
          last = e;
        }
      }
      if (last != null) {
        LOG.error("taint eviction of pod {} failed", f.key(), last);
      }
    } finally {
      works.computeIfPresent(f.key(), (k, v) -> v.id() == f.id() ? null : v);
    }
  }

  /** kube's {@code addConditionAndDeletePod}. */
  private void addConditionAndDeletePod(String key) {
    int slash = key.indexOf('/');
    String namespace = key.substring(0, slash);
    String name = key.substring(slash + 1);
    ResourceClient client = context.client(PODS, user).namespace(namespace);
    MapValue pod = client.get(name);
    Optional<List<Value>> conditions = PodConditions.update(
        Nested.list(pod, "status", "conditions"), "DisruptionTarget", "True", REASON, MESSAGE,
        context.clock().instant());
    if (conditions.isPresent()) {
      // kube's PatchPodStatus: a strategic merge patch with the UID as a precondition
      MapValue patch = MapValue.ofEntries(
          "metadata", MapValue.ofEntries("uid", Value.of(Meta.metaString(pod, "uid"))),
          "status", MapValue.ofEntries("conditions", ListValue.of(conditions.get())));
      context.api().handle(ApiRequest.builder(ApiRequest.Verb.PATCH, PODS)
          .namespace(namespace).name(name).subresource("status")
          .patch(PatchType.STRATEGIC_MERGE_PATCH, Json.write(patch))
          .user(user).fieldManager(ControllerContext.FIELD_MANAGER).build()).orThrow();
    }
    client.delete(name);
  }

  /** The scheduled deletion of the Pod {@code key} ({@code namespace/name}), for tests. */
  Optional<Work> scheduled(String key) {
    return Optional.ofNullable(works.get(key));
  }
}
