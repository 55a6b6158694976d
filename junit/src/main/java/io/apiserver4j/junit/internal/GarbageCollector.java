/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager's garbage collector, for tests: deletes the dependents of deleted
 * owners following {@code metadata.ownerReferences}, and completes the {@code Orphan} and
 * {@code Foreground} propagation policies that kube-apiserver starts by adding the
 * {@code orphan} and {@code foregroundDeletion} finalizers.
 *
 * <ul>
 *   <li>An object none of whose owners exists any more (same uid, kind and name; in its
 *       namespace or cluster-scoped) is deleted in the background; references to absent owners
 *       are removed while another owner remains.
 *   <li>An owner being deleted with the {@code orphan} finalizer: its references are removed from
 *       its dependents, then the finalizer.
 *   <li>An owner being deleted with the {@code foregroundDeletion} finalizer: its dependents are
 *       deleted in the foreground too, and the finalizer is removed once no dependent with
 *       {@code blockOwnerDeletion: true} remains.
 * </ul>
 *
 * <p>It runs on one daemon thread, woken by every write to the store, and scans the whole store
 * on each pass (test stores are small); its writes go through the server as user
 * {@value #MANAGER}'s requests, so admission and finalizers apply as they do for
 * kube-controller-manager.
 */
final class GarbageCollector implements AutoCloseable {
  static final String MANAGER = "generic-garbage-collector";
  private static final String ORPHAN = "orphan";
  private static final String FOREGROUND = "foregroundDeletion";

  private final ApiServer api;
  private final Store store;
  private final Thread thread;
  private final Object lock = new Object();
  /** Held for each pass, and by {@link #whilePaused} so nothing is collected meanwhile. */
  private final java.util.concurrent.locks.ReentrantLock passing =
      new java.util.concurrent.locks.ReentrantLock();
  private boolean dirty = true;
  private boolean stopped;

  /** A stored object and the resource serving it. */
  private record Node(GroupVersionResource resource, boolean namespaced, MapValue object) {
    String uid() {
      return Meta.metaString(object, "uid");
    }

    String namespace() {
      return Meta.metaString(object, "namespace");
    }

    String name() {
      return Meta.metaString(object, "name");
    }

    boolean deleting() {
      return Nested.has(object, "metadata", "deletionTimestamp");
    }

    List<MapValue> ownerReferences() {
      List<MapValue> out = new ArrayList<>();
      for (Value v : Nested.list(object, "metadata", "ownerReferences")) {
        if (v instanceof MapValue m) {
          out.add(m);
        }
      }
      return out;
    }
  }

  GarbageCollector(ApiServer api, Store store, String name) {
    this.api = api;
    this.store = store;
    this.thread = new Thread(this::run, "apiserver4j-garbage-collector-" + name);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Something was written: scan again. */
  void changed() {
    synchronized (lock) {
      dirty = true;
      lock.notifyAll();
    }
  }

  private void run() {
    while (true) {
      synchronized (lock) {
        while (!dirty && !stopped) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (stopped) {
          return;
        }
        dirty = false;
      }
      passing.lock();
      try {
        pass();
      } catch (IllegalStateException e) {
        return; // the server or store closed under us
      } catch (RuntimeException e) {
        // a failed pass is retried on the next write, as the controller's work queue retries
      } finally {
        passing.unlock();
      }
    }
  }

  /** Runs {@code action} after the current pass and before the next one, then scans again. */
  void whilePaused(Runnable action) {
    passing.lock();
    try {
      action.run();
    } finally {
      passing.unlock();
    }
    changed();
  }

  private void pass() {
    List<Node> nodes = new ArrayList<>();
    Map<GroupResource, ResourceDefinition> resources = new LinkedHashMap<>();
    for (ResourceDefinition d : api.registry().all()) {
      resources.putIfAbsent(d.groupResource(), d);
    }
    for (ResourceDefinition d : resources.values()) {
      for (StoredObject o : store.list(CollectionKey.all(d.groupResource().group(),
          d.groupResource().resource()), ListOptions.all()).items()) {
        nodes.add(new Node(d.resource(), d.namespaced(), o.object()));
      }
    }
    Map<String, Node> byUid = new HashMap<>();
    Map<String, List<Node>> dependents = new HashMap<>();
    for (Node n : nodes) {
      byUid.put(n.uid(), n);
      for (MapValue ref : n.ownerReferences()) {
        dependents.computeIfAbsent(Nested.str(ref, "uid"), k -> new ArrayList<>()).add(n);
      }
    }
    for (Node n : nodes) {
      List<MapValue> refs = n.ownerReferences();
      if (refs.isEmpty() || n.deleting()) {
        continue;
      }
      List<MapValue> present = refs.stream().filter(r -> ownerExists(n, r, byUid)).toList();
      if (present.isEmpty()) {
        delete(n, PropagationPolicy.BACKGROUND);
      } else if (present.size() < refs.size()) {
        setOwnerReferences(n, present);
      }
    }
    for (Node owner : nodes) {
      if (!owner.deleting()) {
        continue;
      }
      List<String> finalizers = Meta.finalizers(owner.object());
      List<Node> deps = dependents.getOrDefault(owner.uid(), List.of());
      if (finalizers.contains(ORPHAN)) {
        boolean done = true;
        for (Node d : deps) {
          done &= setOwnerReferences(d, d.ownerReferences().stream()
              .filter(r -> !Nested.str(r, "uid").equals(owner.uid())).toList());
        }
        if (done) {
          removeFinalizer(owner, ORPHAN);
        }
      } else if (finalizers.contains(FOREGROUND)) {
        boolean blocked = false;
        for (Node d : deps) {
          if (!d.deleting()) {
            delete(d, PropagationPolicy.FOREGROUND);
          }
          blocked |= d.ownerReferences().stream().anyMatch(r -> Nested.str(r, "uid")
              .equals(owner.uid()) && Nested.bool(r, "blockOwnerDeletion"));
        }
        if (!blocked) {
          removeFinalizer(owner, FOREGROUND);
        }
      }
    }
  }

  private static boolean ownerExists(Node dependent, MapValue ref, Map<String, Node> byUid) {
    Node owner = byUid.get(Nested.str(ref, "uid"));
    return owner != null && owner.name().equals(Nested.str(ref, "name"))
        && Nested.str(owner.object(), "kind").equals(Nested.str(ref, "kind"))
        && (!owner.namespaced() || owner.namespace().equals(dependent.namespace()));
  }

  private void delete(Node n, PropagationPolicy policy) {
    ApiResponse r = api.handle(ApiRequest.builder(Verb.DELETE, n.resource())
        .namespace(n.namespaced() ? n.namespace() : "").name(n.name())
        .preconditionUid(n.uid()).propagationPolicy(policy).userAgent(MANAGER).build());
    retryOnConflict(r);
  }

  /** Returns whether the write succeeded (or had nothing to do). */
  private boolean setOwnerReferences(Node n, List<MapValue> refs) {
    if (refs.size() == n.ownerReferences().size()) {
      return true;
    }
    return patchMetadata(n, "ownerReferences", ListValue.of(refs));
  }

  private void removeFinalizer(Node n, String finalizer) {
    List<Value> remaining = Meta.finalizers(n.object()).stream().filter(f -> !f.equals(finalizer))
        .map(Value::of).toList();
    patchMetadata(n, "finalizers", ListValue.of(remaining));
  }

  private boolean patchMetadata(Node n, String field, Value value) {
    MapValue patch = MapValue.of(Map.of("metadata", MapValue.of(Map.of(
        field, value, "resourceVersion", Value.of(Meta.metaString(n.object(), "resourceVersion")),
        "uid", Value.of(n.uid())))));
    ApiResponse r = api.handle(ApiRequest.builder(Verb.PATCH, n.resource())
        .namespace(n.namespaced() ? n.namespace() : "").name(n.name()).fieldManager(MANAGER)
        .patch(PatchType.MERGE_PATCH, Json.write(patch)).userAgent(MANAGER).build());
    retryOnConflict(r);
    return r.isSuccess();
  }

  private void retryOnConflict(ApiResponse r) {
    if (r.code() == 409) {
      changed();
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      stopped = true;
      lock.notifyAll();
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
