/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchEvent;
import io.apiserver4j.storage.WatchOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RBAC objects of a store, indexed for authorization: roles and cluster roles by name,
 * bindings by subject, aggregated ClusterRoles with the rules they aggregate. Kept current by one
 * watch per kind, drained before a read when the store may have changed since the last drain, so
 * that a binding written through this server authorizes the next request (an informer without
 * lag). A watch that fails is replaced by a fresh list.
 *
 * <p>Reads are lock-free: each drain that changes something publishes a new immutable
 * {@link Snapshot}, rebuilding only the kinds that changed. With a store whose revision is known
 * in this process (the in-memory store), a read compares that revision with the one the
 * snapshot is current at and takes no lock when nothing was written since; with another store
 * (etcd, where asking the revision is a network call) every read drains the watches under the
 * lock, as events arrive asynchronously anyway. Thread-safe.
 */
public final class RbacIndex implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RbacIndex.class);
  static final String GROUP = "rbac.authorization.k8s.io";

  /** A binding: the role it grants, where, and to whom. */
  public record Binding(String namespace, String name, String roleKind, String roleName,
      List<Value> subjects) {}

  private final Store store;
  private final boolean localRevision;
  private final Informer roles;
  private final Informer clusterRoles;
  private final Informer roleBindings;
  private final Informer clusterRoleBindings;
  /** Held while draining; the informers' state is guarded by it. */
  private final ReentrantLock drain = new ReentrantLock();
  /** Null until the first read. */
  private volatile Snapshot snapshot;
  private boolean closed;

  public RbacIndex(Store store) {
    this.store = store;
    this.localRevision = store instanceof InMemoryStore;
    this.roles = new Informer("roles");
    this.clusterRoles = new Informer("clusterroles");
    this.roleBindings = new Informer("rolebindings");
    this.clusterRoleBindings = new Informer("clusterrolebindings");
  }

  /** The index as of now: everything stored before the call is in it. */
  public Snapshot current() {
    if (!localRevision) {
      return catchUp(Long.MAX_VALUE);
    }
    // the in-memory store publishes a revision after offering its events to the watches, so
    // a snapshot drained at or after it has every change up to it
    long revision = store.currentRevision();
    Snapshot s = snapshot;
    return s != null && s.asOf >= revision ? s : catchUp(revision);
  }

  /** Drains the watches unless another thread did so at or after {@code revision}. */
  private Snapshot catchUp(long revision) {
    drain.lock();
    try {
      Snapshot s = snapshot;
      if (s != null && s.asOf >= revision) {
        return s;
      }
      long asOf = localRevision ? store.currentRevision() : 0;
      boolean rolesChanged = roles.drain();
      boolean clusterRolesChanged = clusterRoles.drain();
      boolean roleBindingsChanged = roleBindings.drain();
      boolean clusterRoleBindingsChanged = clusterRoleBindings.drain();
      if (s == null) {
        s = new Snapshot(asOf, Map.copyOf(roles.objects),
            Snapshot.aggregate(clusterRoles.objects), bySubject(roleBindings.objects),
            bySubject(clusterRoleBindings.objects));
      } else if (rolesChanged || clusterRolesChanged || roleBindingsChanged
          || clusterRoleBindingsChanged) {
        s = new Snapshot(asOf,
            rolesChanged ? Map.copyOf(roles.objects) : s.roles,
            clusterRolesChanged ? Snapshot.aggregate(clusterRoles.objects) : s.clusterRoles,
            roleBindingsChanged ? bySubject(roleBindings.objects) : s.bindingsBySubject,
            clusterRoleBindingsChanged ? bySubject(clusterRoleBindings.objects)
                : s.clusterBindingsBySubject);
      } else if (asOf > s.asOf) {
        s = s.at(asOf);
      }
      snapshot = s;
      return s;
    } finally {
      drain.unlock();
    }
  }

  @Override
  public void close() {
    drain.lock();
    try {
      closed = true;
      for (Informer i : List.of(roles, clusterRoles, roleBindings, clusterRoleBindings)) {
        i.stop();
      }
    } finally {
      drain.unlock();
    }
  }

  /** One kind's objects by namespace/name, following the store. Used under the drain lock. */
  private final class Informer {
    private final CollectionKey collection;
    private final Map<String, MapValue> objects = new HashMap<>();
    private Watch watch;

    Informer(String plural) {
      this.collection = CollectionKey.all(GROUP, plural);
    }

    /** Applies what changed since the last call; whether anything did. */
    boolean drain() {
      if (closed) {
        return false;
      }
      boolean changed = false;
      if (watch == null || watch.isClosed()) {
        relist();
        changed = true;
      }
      try {
        while (true) {
          Optional<WatchEvent> e = watch.poll(Duration.ZERO);
          if (e.isEmpty()) {
            if (watch.isClosed()) {
              relist();
              changed = true;
              continue;
            }
            return changed;
          }
          if (e.get() instanceof WatchEvent.ObjectChange c) {
            String key = key(c.object().object());
            if (c.type() == WatchEvent.Type.DELETED) {
              objects.remove(key);
            } else {
              objects.put(key, c.object().object());
            }
            changed = true;
          } else if (e.get() instanceof WatchEvent.Failure) {
            watch.close();
          }
        }
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        return changed;
      }
    }

    private void relist() {
      if (watch != null) {
        watch.close();
      }
      objects.clear();
      ListResult list = store.list(collection, ListOptions.all());
      for (StoredObject o : list.items()) {
        objects.put(key(o.object()), o.object());
      }
      watch = store.watch(collection, WatchOptions.builder()
          .resourceVersion(list.resourceVersion()).build());
      LOG.debug("listed {} {} at {}", objects.size(), collection, list.resourceVersion());
    }

    void stop() {
      if (watch != null) {
        watch.close();
      }
    }
  }

  private static String key(MapValue o) {
    return Meta.metaString(o, "namespace") + "/" + Meta.metaString(o, "name");
  }

  /** Bindings by subject ({@code User:<name>} or {@code Group:<name>}), immutable. */
  private static Map<String, List<Binding>> bySubject(Map<String, MapValue> bindings) {
    Map<String, List<Binding>> bySubject = new HashMap<>();
    for (MapValue b : bindings.values()) {
      String ns = Meta.metaString(b, "namespace");
      Binding binding = new Binding(ns, Meta.metaString(b, "name"),
          Nested.str(b, "roleRef", "kind"), Nested.str(b, "roleRef", "name"),
          Nested.list(b, "subjects"));
      for (Value s : binding.subjects()) {
        String kind = Nested.str(s, "kind");
        String name = Nested.str(s, "name");
        String key;
        if (kind.equals("ServiceAccount")) {
          String saNs = Nested.str(s, "namespace");
          key = "User:system:serviceaccount:" + (saNs.isEmpty() ? ns : saNs) + ":" + name;
        } else {
          key = kind + ":" + name;
        }
        bySubject.computeIfAbsent(key, k -> new ArrayList<>()).add(binding);
      }
    }
    Map<String, List<Binding>> frozen = new HashMap<>();
    bySubject.forEach((k, v) -> frozen.put(k, List.copyOf(v)));
    return Map.copyOf(frozen);
  }

  /**
   * An immutable view of the index, with bindings by subject and the rules of aggregated
   * ClusterRoles already aggregated. Parts of a kind that did not change are shared with the
   * previous snapshot.
   */
  public static final class Snapshot {
    /** Every change up to this store revision is in it (0: unknown). */
    private final long asOf;
    private final Map<String, MapValue> roles;
    private final Map<String, MapValue> clusterRoles;
    private final Map<String, List<Binding>> bindingsBySubject;
    private final Map<String, List<Binding>> clusterBindingsBySubject;

    private Snapshot(long asOf, Map<String, MapValue> roles, Map<String, MapValue> clusterRoles,
        Map<String, List<Binding>> bindingsBySubject,
        Map<String, List<Binding>> clusterBindingsBySubject) {
      this.asOf = asOf;
      this.roles = roles;
      this.clusterRoles = clusterRoles;
      this.bindingsBySubject = bindingsBySubject;
      this.clusterBindingsBySubject = clusterBindingsBySubject;
    }

    private Snapshot at(long revision) {
      return new Snapshot(revision, roles, clusterRoles, bindingsBySubject,
          clusterBindingsBySubject);
    }

    /**
     * The cluster roles with each aggregated one carrying the rules its selectors match, as
     * kube's aggregation controller writes them; computed once per change of the cluster roles
     * instead of on every decision.
     */
    private static Map<String, MapValue> aggregate(Map<String, MapValue> clusterRoles) {
      Map<String, MapValue> out = new HashMap<>(clusterRoles);
      for (Map.Entry<String, MapValue> e : clusterRoles.entrySet()) {
        if (AggregatedRules.isAggregated(e.getValue())) {
          out.put(e.getKey(), e.getValue().with("rules",
              AggregatedRules.of(e.getValue(), clusterRoles.values())));
        }
      }
      return Map.copyOf(out);
    }

    /** The cluster role bindings naming the user or one of the groups. */
    public List<Binding> clusterBindings(String user, List<String> groups) {
      return lookup(clusterBindingsBySubject, user, groups, null);
    }

    /** The role bindings of {@code namespace} naming the user or one of the groups. */
    public List<Binding> bindings(String namespace, String user, List<String> groups) {
      return lookup(bindingsBySubject, user, groups, namespace);
    }

    private static List<Binding> lookup(Map<String, List<Binding>> bySubject, String user,
        List<String> groups, String namespace) {
      List<Binding> out = new ArrayList<>();
      add(out, bySubject.get("User:" + user), namespace);
      for (String g : groups) {
        add(out, bySubject.get("Group:" + g), namespace);
      }
      return out;
    }

    private static void add(List<Binding> out, List<Binding> found, String namespace) {
      if (found == null) {
        return;
      }
      for (Binding b : found) {
        if ((namespace == null || b.namespace().equals(namespace)) && !out.contains(b)) {
          out.add(b);
        }
      }
    }

    /**
     * The role a binding refers to, if it exists. An aggregated ClusterRole has the rules of
     * the roles its selectors match, as kube's aggregation controller writes them.
     */
    public Optional<MapValue> role(Binding b) {
      if (!b.roleKind().equals("ClusterRole")) {
        return Optional.ofNullable(roles.get(b.namespace() + "/" + b.roleName()));
      }
      return Optional.ofNullable(clusterRoles.get("/" + b.roleName()));
    }
  }
}
