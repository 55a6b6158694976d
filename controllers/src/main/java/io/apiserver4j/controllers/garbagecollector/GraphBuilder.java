/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.controllers.internal.EventRecorder;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.controllers.internal.WorkQueue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * kube's {@code GraphBuilder}: turns the informers' events of every deletable resource into the
 * dependency graph, one event at a time on one worker, and queues the nodes the garbage
 * collector must look at: dependents of a deleted owner, owners waiting for their dependents,
 * owners to orphan. It never reads the store: the informers' first lists build the graph, their
 * watch events maintain it.
 */
final class GraphBuilder {
  static final String FOREGROUND = "foregroundDeletion";
  static final String ORPHAN = "orphan";

  enum EventType { ADD, UPDATE, DELETE }

  /** One informer event, or a virtual delete the collector produced. Unique per event. */
  record GraphEvent(long seq, EventType type, ObjectReference identity, MapValue object,
      MapValue oldObject, boolean virtual) {}

  /** Guards the graph: every node and {@link #uidToNode}. */
  final Object lock = new Object();
  private final Map<String, Node> uidToNode = new HashMap<>();
  private final AtomicLong seq = new AtomicLong();
  final WorkQueue<GraphEvent> graphChanges;
  final WorkQueue<Node> attemptToDelete;
  final WorkQueue<Node> attemptToOrphan;
  final AbsentOwnerCache absentOwnerCache;
  private final EventRecorder events;

  GraphBuilder(WorkQueue<GraphEvent> graphChanges, WorkQueue<Node> attemptToDelete,
      WorkQueue<Node> attemptToOrphan, AbsentOwnerCache absentOwnerCache, EventRecorder events) {
    this.graphChanges = graphChanges;
    this.attemptToDelete = attemptToDelete;
    this.attemptToOrphan = attemptToOrphan;
    this.absentOwnerCache = absentOwnerCache;
    this.events = events;
  }

  /** Follows {@code informer}'s resource (kube's monitor of one resource). */
  void monitor(Informer informer) {
    ResourceDefinition d = informer.definition();
    String apiVersion = d.resource().group().isEmpty() ? d.resource().version()
        : d.resource().group() + "/" + d.resource().version();
    String kind = d.kind().kind();
    informer.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        enqueue(EventType.ADD, identity(apiVersion, kind, object), object, null);
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        enqueue(EventType.UPDATE, identity(apiVersion, kind, object), object, old);
      }

      @Override
      public void onDelete(MapValue object) {
        enqueue(EventType.DELETE, identity(apiVersion, kind, object), object, null);
      }
    });
  }

  private static ObjectReference identity(String apiVersion, String kind, MapValue object) {
    return new ObjectReference(apiVersion, kind, Meta.metaString(object, "name"),
        Meta.metaString(object, "uid"), Meta.metaString(object, "namespace"));
  }

  private void enqueue(EventType type, ObjectReference identity, MapValue object,
      MapValue old) {
    graphChanges.add(new GraphEvent(seq.incrementAndGet(), type, identity, object, old, false));
  }

  /** kube's {@code enqueueVirtualDeleteEvent}: the object at {@code identity} is known gone. */
  void enqueueVirtualDeleteEvent(ObjectReference identity) {
    graphChanges.add(new GraphEvent(seq.incrementAndGet(), EventType.DELETE, identity, null,
        null, true));
  }

  Node node(String uid) {
    synchronized (lock) {
      return uidToNode.get(uid);
    }
  }

  int size() {
    synchronized (lock) {
      return uidToNode.size();
    }
  }

  /** kube's {@code processGraphChanges}, for one event. */
  void process(GraphEvent event) {
    synchronized (lock) {
      ObjectReference observed = event.identity();
      Node existing = uidToNode.get(observed.uid());
      if (existing != null && !event.virtual() && existing.virtual) {
        if (!observed.equals(existing.identity)) {
          // dependents that named this owner by other coordinates may be wrong about it
          for (Node dep : partition(existing.dependents, observed).nonMatching()) {
            if (!observed.namespace().isEmpty()
                && !dep.identity.namespace().equals(observed.namespace())) {
              reportInvalidNamespaceOwnerRef(dep, observed.uid());
            }
            attemptToDelete.add(dep);
          }
          existing = replace(existing, observed);
        }
        existing.virtual = false;
      }
      boolean found = existing != null;
      switch (event.type()) {
        case ADD, UPDATE -> {
          MapValue object = event.object();
          List<OwnerReference> owners = OwnerReference.of(object);
          boolean beingDeleted = beingDeleted(object);
          if (!found) {
            Node n = new Node(observed, owners, false);
            n.beingDeleted = beingDeleted;
            n.deletingDependents = beingDeleted && hasFinalizer(object, FOREGROUND);
            insertNode(n);
            processTransitions(event.oldObject(), object, n);
          } else {
            Diff diff = referencesDiffs(existing.owners, owners);
            if (!diff.isEmpty()) {
              addUnblockedOwnersToDeleteQueue(diff);
              existing.owners = List.copyOf(owners);
              addDependentToOwners(existing, diff.added());
              removeDependentFromOwners(existing, diff.removed());
            }
            if (beingDeleted) {
              existing.beingDeleted = true;
            }
            processTransitions(event.oldObject(), object, existing);
          }
        }
        case DELETE -> {
          if (found) {
            delete(event, existing);
          }
        }
        default -> throw new IllegalStateException("unknown event " + event.type());
      }
    }
  }

  /** Under lock: kube's handling of a delete event, real or virtual. */
  private void delete(GraphEvent event, Node existing) {
    boolean remove = true;
    ObjectReference deleted = event.identity();
    if (event.virtual()) {
      if (existing.virtual) {
        // a virtual node: its dependents may disagree on its coordinates
        Partition p = partition(existing.dependents, deleted);
        if (!p.nonMatching().isEmpty()) {
          remove = false;
          if (!p.matching().isEmpty()) {
            absentOwnerCache.add(deleted);
            p.matching().forEach(attemptToDelete::add);
          }
          if (existing.identity.equals(deleted)) {
            ObjectReference alternate = alternateOwnerIdentity(p.nonMatching(), deleted);
            if (alternate != null) {
              Node replacement = replace(existing, alternate);
              attemptToDelete.addRateLimited(replacement);
            }
          }
        }
      } else if (!existing.identity.equals(deleted)) {
        // an observed node disagrees with the coordinates the virtual delete was made for
        remove = false;
        Partition p = partition(existing.dependents, deleted);
        if (!p.matching().isEmpty()) {
          absentOwnerCache.add(deleted);
          p.matching().forEach(attemptToDelete::add);
        }
      }
    }
    if (!remove) {
      return;
    }
    removeNode(existing);
    if (!existing.dependents.isEmpty()) {
      absentOwnerCache.add(deleted);
    }
    existing.dependents.forEach(attemptToDelete::add);
    for (OwnerReference owner : existing.owners) {
      Node ownerNode = uidToNode.get(owner.uid());
      if (ownerNode != null && ownerNode.deletingDependents) {
        // it may be waiting for this dependent only
        attemptToDelete.add(ownerNode);
      }
    }
  }

  private Node replace(Node existing, ObjectReference identity) {
    Node copy = existing.copy();
    copy.identity = identity;
    uidToNode.put(identity.uid(), copy);
    // the dependents and owners point at the node by uid; the owners' dependent sets by node
    for (OwnerReference o : copy.owners) {
      Node owner = uidToNode.get(o.uid());
      if (owner != null && owner.dependents.remove(existing)) {
        owner.dependents.add(copy);
      }
    }
    return copy;
  }

  /** kube's {@code processTransitions}. */
  private void processTransitions(MapValue old, MapValue object, Node n) {
    if (startsWaitingFor(old, object, ORPHAN)) {
      attemptToOrphan.add(n);
      return;
    }
    if (startsWaitingFor(old, object, FOREGROUND)) {
      n.deletingDependents = true;
      n.dependents.forEach(attemptToDelete::add);
      attemptToDelete.add(n);
    }
  }

  /** Whether {@code object} is being deleted with {@code finalizer} and {@code old} was not. */
  private static boolean startsWaitingFor(MapValue old, MapValue object, String finalizer) {
    if (!beingDeleted(object) || !hasFinalizer(object, finalizer)) {
      return false;
    }
    return old == null || !beingDeleted(old) || !hasFinalizer(old, finalizer);
  }

  static boolean beingDeleted(MapValue object) {
    return Nested.has(object, "metadata", "deletionTimestamp")
        && !(Nested.getOrNull(object, "metadata", "deletionTimestamp")
            instanceof io.apiserver4j.core.NullValue);
  }

  static boolean hasFinalizer(MapValue object, String finalizer) {
    return Meta.finalizers(object).contains(finalizer);
  }

  private void insertNode(Node n) {
    uidToNode.put(n.identity.uid(), n);
    addDependentToOwners(n, n.owners);
  }

  private void removeNode(Node n) {
    uidToNode.remove(n.identity.uid());
    removeDependentFromOwners(n, n.owners);
  }

  /**
   * kube's {@code addDependentToOwners}: virtual nodes for owners not in the graph yet; a
   * dependent whose reference may not resolve (another namespace, other coordinates than the
   * owner observed, a virtual cluster-scoped owner named from a namespace) is queued so that
   * the collector checks its owners with the server.
   */
  private void addDependentToOwners(Node n, List<OwnerReference> owners) {
    boolean potentiallyInvalid = false;
    for (OwnerReference owner : owners) {
      Node ownerNode = uidToNode.get(owner.uid());
      boolean created = ownerNode == null;
      if (created) {
        ownerNode = new Node(ObjectReference.of(owner, n.identity.namespace()), List.of(), true);
        uidToNode.put(owner.uid(), ownerNode);
      }
      ownerNode.dependents.add(n);
      if (created) {
        // the collector asks the server whether it exists, and deletes the virtual node if not
        attemptToDelete.add(ownerNode);
      } else if (!potentiallyInvalid) {
        ObjectReference o = ownerNode.identity;
        boolean ownerNamespaced = !o.namespace().isEmpty();
        if (ownerNamespaced && !o.namespace().equals(n.identity.namespace())) {
          if (!ownerNode.virtual) {
            // an observed namespaced owner in another namespace: the reference is wrong
            reportInvalidNamespaceOwnerRef(n, owner.uid());
          }
          potentiallyInvalid = true;
        } else if (!(owner.apiVersion().equals(o.apiVersion()) && owner.kind().equals(o.kind())
            && owner.name().equals(o.name()))) {
          potentiallyInvalid = true;
        } else if (!ownerNamespaced && !o.namespace().equals(n.identity.namespace())
            && ownerNode.virtual) {
          // perhaps a missing object of a namespaced kind named by a cluster-scoped dependent
          potentiallyInvalid = true;
        }
      }
    }
    if (potentiallyInvalid) {
      attemptToDelete.add(n);
    }
  }

  private void removeDependentFromOwners(Node n, List<OwnerReference> owners) {
    for (OwnerReference owner : owners) {
      Node ownerNode = uidToNode.get(owner.uid());
      if (ownerNode != null) {
        ownerNode.dependents.remove(n);
      }
    }
  }

  /** kube's {@code addUnblockedOwnersToDeleteQueue}. */
  private void addUnblockedOwnersToDeleteQueue(Diff diff) {
    for (OwnerReference ref : diff.removed()) {
      if (ref.blocks()) {
        Node n = uidToNode.get(ref.uid());
        if (n != null) {
          attemptToDelete.add(n);
        }
      }
    }
    for (OwnerReference[] c : diff.changed()) {
      boolean wasBlocked = c[0].blocks();
      boolean isUnblocked = !c[1].blocks();
      if (wasBlocked && isUnblocked) {
        Node n = uidToNode.get(c[1].uid());
        if (n != null) {
          attemptToDelete.add(n);
        }
      }
    }
  }

  private void reportInvalidNamespaceOwnerRef(Node n, String invalidOwnerUid) {
    for (OwnerReference ref : n.owners) {
      if (ref.uid().equals(invalidOwnerUid)) {
        ObjectReference invalid = ObjectReference.of(new OwnerReference(ref.apiVersion(),
            ref.kind(), ref.name(), ref.uid(), null, null), n.identity.namespace());
        events.warning(involved(n.identity), "OwnerRefInvalidNamespace", "ownerRef " + invalid
            + " does not exist in namespace \"" + n.identity.namespace() + "\"");
        return;
      }
    }
  }

  private static EventRecorder.InvolvedObject involved(ObjectReference r) {
    return new EventRecorder.InvolvedObject(r.apiVersion(), r.kind(), r.namespace(), r.name(),
        r.uid(), "");
  }

  record Diff(List<OwnerReference> added, List<OwnerReference> removed,
      List<OwnerReference[]> changed) {
    boolean isEmpty() {
      return added.isEmpty() && removed.isEmpty() && changed.isEmpty();
    }
  }

  /** kube's {@code referencesDiffs}, by uid. */
  static Diff referencesDiffs(List<OwnerReference> old, List<OwnerReference> now) {
    Map<String, OwnerReference> oldByUid = new LinkedHashMap<>();
    old.forEach(r -> oldByUid.put(r.uid(), r));
    List<OwnerReference> added = new ArrayList<>();
    List<OwnerReference[]> changed = new ArrayList<>();
    for (OwnerReference r : now) {
      OwnerReference before = oldByUid.remove(r.uid());
      if (before == null) {
        added.add(r);
      } else if (!before.equals(r)) {
        changed.add(new OwnerReference[] {before, r});
      }
    }
    return new Diff(added, new ArrayList<>(oldByUid.values()), changed);
  }

  record Partition(List<Node> matching, List<Node> nonMatching) {}

  /**
   * kube's {@code partitionDependents}: the dependents whose references to {@code owner}'s uid
   * agree with its coordinates (and namespace, for a namespaced owner), and the others.
   */
  private static Partition partition(Set<Node> dependents, ObjectReference owner) {
    boolean ownerNamespaced = !owner.namespace().isEmpty();
    List<Node> matching = new ArrayList<>();
    List<Node> nonMatching = new ArrayList<>();
    for (Node dep : dependents) {
      boolean foundMatch = false;
      boolean foundMismatch = false;
      if (ownerNamespaced && !owner.namespace().equals(dep.identity.namespace())) {
        foundMismatch = true;
      } else {
        for (OwnerReference ref : dep.owners) {
          if (!ref.uid().equals(owner.uid())) {
            continue;
          }
          if (ref.apiVersion().equals(owner.apiVersion()) && ref.kind().equals(owner.kind())
              && ref.name().equals(owner.name())) {
            foundMatch = true;
          } else {
            foundMismatch = true;
          }
        }
      }
      if (foundMatch) {
        matching.add(dep);
      }
      if (foundMismatch) {
        nonMatching.add(dep);
      }
    }
    return new Partition(matching, nonMatching);
  }

  /**
   * kube's {@code getAlternateOwnerIdentity}: of the other coordinates dependents give the
   * owner, ordered by namespace, kind, name and apiVersion, the first after
   * {@code verifiedAbsent}, else the first; null when there is none.
   */
  static ObjectReference alternateOwnerIdentity(List<Node> deps,
      ObjectReference verifiedAbsent) {
    boolean absentClusterScoped = verifiedAbsent.namespace().isEmpty();
    Set<ObjectReference> seen = new HashSet<>();
    seen.add(verifiedAbsent);
    java.util.Comparator<ObjectReference> order = java.util.Comparator
        .comparing(ObjectReference::namespace).thenComparing(ObjectReference::kind)
        .thenComparing(ObjectReference::name).thenComparing(ObjectReference::apiVersion);
    ObjectReference first = null;
    ObjectReference firstFollowing = null;
    for (Node dep : deps) {
      for (OwnerReference ref : dep.owners) {
        if (!ref.uid().equals(verifiedAbsent.uid())) {
          continue;
        }
        ObjectReference candidate = ObjectReference.of(ref, dep.identity.namespace());
        if (absentClusterScoped && candidate.apiVersion().equals(verifiedAbsent.apiVersion())
            && candidate.kind().equals(verifiedAbsent.kind())) {
          // that apiVersion and kind are known cluster-scoped
          candidate = candidate.withNamespace("");
        }
        if (!seen.add(candidate)) {
          continue;
        }
        if (first == null || order.compare(candidate, first) < 0) {
          first = candidate;
        }
        if (order.compare(verifiedAbsent, candidate) < 0
            && (firstFollowing == null || order.compare(candidate, firstFollowing) < 0)) {
          firstFollowing = candidate;
        }
      }
    }
    return firstFollowing != null ? firstFollowing : first;
  }

  /** The dependents of the node of {@code uid}, copied under the lock. */
  List<Node> dependents(Node n) {
    synchronized (lock) {
      return new ArrayList<>(n.dependents);
    }
  }

  /** Every node, for tests. */
  Set<String> uids() {
    synchronized (lock) {
      return new LinkedHashSet<>(uidToNode.keySet());
    }
  }
}
