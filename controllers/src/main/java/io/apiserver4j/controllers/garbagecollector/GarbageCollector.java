/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.controllers.internal.Controller;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.ControllerContext.Outcome;
import io.apiserver4j.controllers.internal.ControllerContext.Workers;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.UnsupportedMediaTypeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code garbage-collector-controller}: deletes the dependents of
 * owners that are gone (in the background, or in the foreground when an owner waits for them
 * with the {@code foregroundDeletion} finalizer, which it removes once no dependent with
 * {@code blockOwnerDeletion} remains) and orphans the dependents of owners deleted with the
 * {@code orphan} finalizer (their owner references removed, then the finalizer). It follows
 * every resource that supports delete, list and watch through the shared informers, keeps the
 * dependency graph from their events, and asks the server only about the objects it acts on.
 *
 * <p>Its requests are made as {@code system:serviceaccount:kube-system:generic-garbage-collector}
 * with field manager {@code kube-controller-manager}; warnings about owner references that
 * cannot resolve are recorded as {@code OwnerRefInvalidNamespace} Events, as in kube.
 */
public final class GarbageCollector implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);
  /** kube's service account of the garbage collector. */
  static final String ACCOUNT = "generic-garbage-collector";
  /** kube's event source component. */
  static final String COMPONENT = "garbage-collector-controller";

  private final ControllerContext context;
  private final UserInfo user = ControllerContext.serviceAccount(ACCOUNT);
  private final GraphBuilder graph;
  private final List<Workers> workers = new ArrayList<>();

  /** Follows every deletable resource's informer; runs once {@link #start}ed. */
  public GarbageCollector(ControllerContext context) {
    this.context = context;
    // the graph is built from these events: a reset in place must not lose one
    WorkQueue<GraphBuilder.GraphEvent> changes = context.newQueue(
        "garbage_collector_graph_changes", ControllerContext.OnReset.KEEP);
    WorkQueue<Node> delete = context.newQueue("garbage_collector_attempt_to_delete");
    WorkQueue<Node> orphan = context.newQueue("garbage_collector_attempt_to_orphan");
    AbsentOwnerCache absent = new AbsentOwnerCache();
    context.onReset(absent::clear);
    this.graph = new GraphBuilder(changes, delete, orphan, absent,
        new EventRecorder(context, user, COMPONENT));
    context.informers().forEveryResource(graph::monitor);
  }

  @Override
  public void start() {
    workers.add(context.startWorkers("gc-graph", graph.graphChanges, 1, e -> {
      graph.process(e);
      return Outcome.FORGET;
    }));
    // kube runs --concurrent-gc-syncs workers on each of the two queues
    int syncs = context.concurrentSyncs("gc");
    workers.add(context.startWorkers("gc-delete", graph.attemptToDelete, syncs,
        this::attemptToDeleteWorker));
    workers.add(context.startWorkers("gc-orphan", graph.attemptToOrphan, syncs,
        this::attemptToOrphanWorker));
  }

  @Override
  public void close() {
    for (Workers w : workers) {
      w.close();
    }
    workers.clear();
  }

  /** The graph, for tests. */
  GraphBuilder graph() {
    return graph;
  }

  // ---------------------------------------------------------------- attempt to delete

  /** A virtual delete event was queued: the item needs no retry. */
  private static final class VirtualDeleteQueued extends RuntimeException {
    VirtualDeleteQueued() {
      super(null, null, false, false);
    }
  }

  /** A cluster-scoped object refers to a namespaced owner: retrying cannot help. */
  private static final class NamespacedOwnerOfClusterScopedObject extends RuntimeException {
    NamespacedOwnerOfClusterScopedObject() {
      super(null, null, false, false);
    }
  }

  /** No served resource has the kind: it may be served later, so the item is retried. */
  private static final class RestMappingException extends RuntimeException {
    RestMappingException(String apiVersion, String kind) {
      super("unable to get REST mapping for " + kind + "/" + apiVersion, null, false, false);
    }
  }

  private Outcome attemptToDeleteWorker(Node n) {
    boolean virtual;
    synchronized (graph.lock) {
      virtual = n.virtual;
    }
    if (virtual) {
      Node fromGraph = graph.node(n.identity.uid());
      if (fromGraph == null) {
        return Outcome.FORGET;
      }
      synchronized (graph.lock) {
        if (!fromGraph.virtual) {
          return Outcome.FORGET;
        }
      }
    }
    try {
      attemptToDeleteItem(n);
    } catch (VirtualDeleteQueued | NamespacedOwnerOfClusterScopedObject e) {
      return Outcome.FORGET;
    } catch (RestMappingException e) {
      LOG.debug("error syncing item {}: {}", n, e.getMessage());
      return Outcome.REQUEUE;
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("error syncing item {}: {}", n, e.getMessage());
      return Outcome.REQUEUE;
    } catch (StatusException e) {
      LOG.warn("error syncing item {}: {}", n, e.getMessage());
      return Outcome.REQUEUE;
    }
    synchronized (graph.lock) {
      // a virtual node added and removed while the watch was re-established must not linger
      return n.virtual ? Outcome.REQUEUE : Outcome.FORGET;
    }
  }

  /** kube's {@code attemptToDeleteItem}. */
  private void attemptToDeleteItem(Node item) {
    ObjectReference identity;
    boolean beingDeleted;
    boolean deletingDependents;
    synchronized (graph.lock) {
      identity = item.identity;
      beingDeleted = item.beingDeleted;
      deletingDependents = item.deletingDependents;
    }
    if (beingDeleted && !deletingDependents) {
      // a one-way trip: its dependents are processed once it is gone
      return;
    }
    Optional<MapValue> found = getObject(identity);
    if (found.isEmpty() || !Meta.metaString(found.get(), "uid").equals(identity.uid())) {
      graph.enqueueVirtualDeleteEvent(identity);
      throw new VirtualDeleteQueued();
    }
    MapValue latest = found.get();
    if (deletingDependents) {
      processDeletingDependentsItem(item);
      return;
    }
    List<OwnerReference> refs = OwnerReference.of(latest);
    if (refs.isEmpty()) {
      return;
    }
    List<OwnerReference> solid = new ArrayList<>();
    List<OwnerReference> dangling = new ArrayList<>();
    List<OwnerReference> waiting = new ArrayList<>();
    for (OwnerReference ref : refs) {
      Optional<MapValue> owner = liveOwner(ref, identity);
      if (owner.isEmpty()) {
        dangling.add(ref);
      } else if (GraphBuilder.beingDeleted(owner.get())
          && GraphBuilder.hasFinalizer(owner.get(), GraphBuilder.FOREGROUND)) {
        waiting.add(ref);
      } else {
        solid.add(ref);
      }
    }
    String rv = Meta.metaString(latest, "resourceVersion");
    if (!solid.isEmpty()) {
      if (dangling.isEmpty() && waiting.isEmpty()) {
        return;
      }
      // references to owners waiting for their dependents must go, or those owners wait forever
      Set<String> uids = new java.util.LinkedHashSet<>();
      dangling.forEach(r -> uids.add(r.uid()));
      waiting.forEach(r -> uids.add(r.uid()));
      patch(identity, deleteOwnerRefStrategicMergePatch(identity.uid(), uids),
          live -> deleteOwnerRefJsonMergePatch(live, uids));
      return;
    }
    List<Node> dependents;
    synchronized (graph.lock) {
      dependents = new ArrayList<>(item.dependents);
    }
    if (!waiting.isEmpty() && !dependents.isEmpty()) {
      for (Node dep : dependents) {
        boolean depDeletingDependents;
        synchronized (graph.lock) {
          depDeletingDependents = dep.deletingDependents;
        }
        if (depDeletingDependents) {
          // a possible cycle: the item's references stop blocking before it is deleted
          LOG.debug("unblocking the owner references of {} to prevent a cycle with {}", identity,
              dep);
          patch(identity, unblockOwnerReferencesStrategicMergePatch(item),
              this::unblockOwnerReferencesJsonMergePatch);
          break;
        }
      }
      deleteObject(identity, rv, refs, PropagationPolicy.FOREGROUND);
      return;
    }
    PropagationPolicy policy;
    if (GraphBuilder.hasFinalizer(latest, GraphBuilder.ORPHAN)) {
      policy = PropagationPolicy.ORPHAN;
    } else if (GraphBuilder.hasFinalizer(latest, GraphBuilder.FOREGROUND)) {
      policy = PropagationPolicy.FOREGROUND;
    } else {
      policy = PropagationPolicy.BACKGROUND;
    }
    deleteObject(identity, rv, refs, policy);
  }

  /** kube's {@code processDeletingDependentsItem}. */
  private void processDeletingDependentsItem(Node item) {
    List<Node> blocking;
    synchronized (graph.lock) {
      blocking = item.blockingDependents();
    }
    if (blocking.isEmpty()) {
      removeFinalizer(item, GraphBuilder.FOREGROUND);
      return;
    }
    for (Node dep : blocking) {
      boolean depDeletingDependents;
      synchronized (graph.lock) {
        depDeletingDependents = dep.deletingDependents;
      }
      if (!depDeletingDependents) {
        graph.attemptToDelete.add(dep);
      }
    }
  }

  /**
   * kube's {@code isDangling}: the owner {@code ref} names, or empty if it is absent (by the
   * absent-owner cache, or the server's answer).
   */
  private Optional<MapValue> liveOwner(OwnerReference ref, ObjectReference item) {
    ObjectReference clusterKey = new ObjectReference(ref.apiVersion(), ref.kind(), ref.name(),
        ref.uid(), "");
    if (graph.absentOwnerCache.has(clusterKey)) {
      return Optional.empty();
    }
    ObjectReference key = clusterKey.withNamespace(item.namespace());
    if (graph.absentOwnerCache.has(key)) {
      return Optional.empty();
    }
    Mapping m = mapping(ref.apiVersion(), ref.kind());
    if (!m.namespaced()) {
      key = clusterKey;
    }
    if (item.namespace().isEmpty() && m.namespaced()) {
      LOG.debug("{} is cluster-scoped, but refers to a namespaced owner {}", item, ref);
      throw new NamespacedOwnerOfClusterScopedObject();
    }
    Optional<MapValue> owner = client(m, m.namespaced() ? item.namespace() : "")
        .find(ref.name());
    if (owner.isEmpty() || !Meta.metaString(owner.get(), "uid").equals(ref.uid())) {
      graph.absentOwnerCache.add(key);
      return Optional.empty();
    }
    return owner;
  }

  // ---------------------------------------------------------------- attempt to orphan

  private Outcome attemptToOrphanWorker(Node owner) {
    ObjectReference identity;
    List<Node> dependents;
    synchronized (graph.lock) {
      identity = owner.identity;
      dependents = new ArrayList<>(owner.dependents);
    }
    try {
      List<String> failed = new ArrayList<>();
      for (Node dependent : dependents) {
        ObjectReference d;
        synchronized (graph.lock) {
          d = dependent.identity;
        }
        try {
          patch(d, deleteOwnerRefStrategicMergePatch(d.uid(), Set.of(identity.uid())),
              live -> deleteOwnerRefJsonMergePatch(live, Set.of(identity.uid())));
        } catch (NotFoundException e) {
          // gone: nothing to orphan
        } catch (StatusException | RestMappingException e) {
          failed.add("orphaning " + d + " failed, " + e.getMessage());
        }
      }
      if (!failed.isEmpty()) {
        LOG.warn("orphanDependents for {} failed: {}", identity, failed);
        return Outcome.REQUEUE;
      }
      removeFinalizer(owner, GraphBuilder.ORPHAN);
      return Outcome.FORGET;
    } catch (StatusException | RestMappingException e) {
      LOG.warn("removing the orphan finalizer of {} failed: {}", identity, e.getMessage());
      return Outcome.REQUEUE;
    }
  }

  // ---------------------------------------------------------------- requests

  record Mapping(GroupVersionResource resource, boolean namespaced) {}

  /** kube's REST mapping of a kind: the served version named, else any served version. */
  private Mapping mapping(String apiVersion, String kind) {
    int slash = apiVersion.indexOf('/');
    String group = slash < 0 ? "" : apiVersion.substring(0, slash);
    String version = slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
    Optional<ResourceDefinition> d = context.api().registry()
        .findByKind(new GroupVersionKind(group, version, kind));
    if (d.isEmpty()) {
      d = context.api().registry().all().stream()
          .filter(x -> x.kind().group().equals(group) && x.kind().kind().equals(kind))
          .findFirst();
    }
    ResourceDefinition def = d.orElseThrow(() -> new RestMappingException(apiVersion, kind));
    GroupVersionResource r = def.resource();
    return new Mapping(new GroupVersionResource(r.group(), r.version(), r.resource()),
        def.namespaced());
  }

  private ResourceClient client(Mapping m, String namespace) {
    ResourceClient c = context.client(m.resource(), user);
    return m.namespaced() ? c.namespace(namespace) : c;
  }

  private ResourceClient client(ObjectReference identity) {
    Mapping m = mapping(identity.apiVersion(), identity.kind());
    return client(m, identity.namespace());
  }

  private Optional<MapValue> getObject(ObjectReference identity) {
    Mapping m = mapping(identity.apiVersion(), identity.kind());
    if (m.namespaced() && identity.namespace().isEmpty()) {
      // a namespaced kind without a namespace: only a cluster-scoped dependent names one so
      throw new NamespacedOwnerOfClusterScopedObject();
    }
    return client(m, identity.namespace()).find(identity.name());
  }

  /**
   * kube's {@code deleteObject}: preconditioned on the uid and the resourceVersion the decision
   * was made at; on a conflict where only other fields than the owner references changed, the
   * delete is retried on the uid alone.
   */
  private void deleteObject(ObjectReference identity, String resourceVersion,
      List<OwnerReference> ownersAtResourceVersion, PropagationPolicy policy) {
    DeleteOptions.Builder options = DeleteOptions.builder().preconditionUid(identity.uid())
        .propagationPolicy(policy);
    if (!resourceVersion.isEmpty()) {
      options.preconditionResourceVersion(resourceVersion);
    }
    try {
      client(identity).delete(identity.name(), options.build());
    } catch (NotFoundException e) {
      graph.enqueueVirtualDeleteEvent(identity);
      throw new VirtualDeleteQueued();
    } catch (ConflictException e) {
      if (resourceVersion.isEmpty()) {
        throw e;
      }
      Optional<MapValue> live = getObject(identity);
      if (live.isEmpty()) {
        graph.enqueueVirtualDeleteEvent(identity);
        throw new VirtualDeleteQueued();
      }
      if (Meta.metaString(live.get(), "uid").equals(identity.uid())
          && !Meta.metaString(live.get(), "resourceVersion").equals(resourceVersion)
          && OwnerReference.of(live.get()).equals(ownersAtResourceVersion)) {
        deleteObject(identity, "", List.of(), policy);
        return;
      }
      throw e;
    }
  }

  /**
   * kube's {@code patch}: a strategic merge patch, or for kinds without one (custom
   * resources, 415) the JSON merge patch {@code jsonMergePatch} makes from the live object.
   */
  private void patch(ObjectReference identity, String strategic,
      Function<MapValue, String> jsonMergePatch) {
    ResourceClient c = client(identity);
    try {
      c.patch(identity.name(), PatchType.STRATEGIC_MERGE_PATCH, strategic);
    } catch (UnsupportedMediaTypeException e) {
      MapValue live = c.get(identity.name());
      c.patch(identity.name(), PatchType.MERGE_PATCH, jsonMergePatch.apply(live));
    }
  }

  /** kube's {@code GenerateDeleteOwnerRefStrategicMergeBytes}. */
  static String deleteOwnerRefStrategicMergePatch(String dependentUid, Set<String> ownerUids) {
    List<Value> refs = ownerUids.stream().map(u -> (Value) MapValue.ofEntries(
        "$patch", Value.of("delete"), "uid", Value.of(u))).toList();
    return Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries(
        "ownerReferences", ListValue.of(refs), "uid", Value.of(dependentUid))));
  }

  /** kube's {@code deleteOwnerRefJSONMergePatch}: the other references, at the live version. */
  static String deleteOwnerRefJsonMergePatch(MapValue live, Set<String> ownerUids) {
    List<Value> kept = new ArrayList<>();
    for (Value v : io.apiserver4j.core.Nested.list(live, "metadata", "ownerReferences")) {
      if (!(v instanceof MapValue m)
          || !ownerUids.contains(io.apiserver4j.core.Nested.str(m, "uid"))) {
        kept.add(v);
      }
    }
    return Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries(
        "resourceVersion", Value.of(Meta.metaString(live, "resourceVersion")),
        "ownerReferences", kept.isEmpty() ? Value.nullValue() : ListValue.of(kept))));
  }

  /** kube's {@code unblockOwnerReferencesStrategicMergePatch}. */
  private String unblockOwnerReferencesStrategicMergePatch(Node item) {
    List<Value> refs = new ArrayList<>();
    String uid;
    synchronized (graph.lock) {
      uid = item.identity.uid();
      for (OwnerReference o : item.owners) {
        if (o.blocks()) {
          refs.add(MapValue.ofEntries("uid", Value.of(o.uid()),
              "blockOwnerDeletion", Value.of(false)));
        }
      }
    }
    return Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries(
        "ownerReferences", ListValue.of(refs), "uid", Value.of(uid))));
  }

  /** kube's {@code unblockOwnerReferencesJSONMergePatch}. */
  private String unblockOwnerReferencesJsonMergePatch(MapValue live) {
    List<Value> refs = new ArrayList<>();
    for (Value v : io.apiserver4j.core.Nested.list(live, "metadata", "ownerReferences")) {
      if (v instanceof MapValue m && io.apiserver4j.core.Nested.bool(m, "blockOwnerDeletion")) {
        refs.add(io.apiserver4j.core.Nested.set(m, Value.of(false), "blockOwnerDeletion"));
      } else {
        refs.add(v);
      }
    }
    return Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries(
        "resourceVersion", Value.of(Meta.metaString(live, "resourceVersion")),
        "ownerReferences", ListValue.of(refs))));
  }

  /**
   * kube's {@code removeFinalizer}: a JSON merge patch of the finalizers at the live
   * resourceVersion, retried on conflicts as client-go's {@code RetryOnConflict} (5 steps).
   */
  private void removeFinalizer(Node owner, String finalizer) {
    ObjectReference identity;
    synchronized (graph.lock) {
      identity = owner.identity;
    }
    ResourceClient c = client(identity);
    for (int attempt = 1; ; attempt++) {
      Optional<MapValue> live = c.find(identity.name());
      if (live.isEmpty()) {
        return;
      }
      List<String> finalizers = Meta.finalizers(live.get());
      if (!finalizers.contains(finalizer)) {
        return;
      }
      List<String> remaining = finalizers.stream().filter(f -> !f.equals(finalizer))
          .collect(Collectors.toList());
      String patch = Json.write(MapValue.ofEntries("metadata", MapValue.ofEntries(
          "resourceVersion", Value.of(Meta.metaString(live.get(), "resourceVersion")),
          "finalizers", remaining.isEmpty() ? Value.nullValue()
              : ListValue.ofStrings(remaining))));
      try {
        c.patch(identity.name(), PatchType.MERGE_PATCH, patch);
        return;
      } catch (NotFoundException e) {
        return;
      } catch (ConflictException e) {
        if (attempt >= 5) {
          throw e;
        }
      }
    }
  }
}
