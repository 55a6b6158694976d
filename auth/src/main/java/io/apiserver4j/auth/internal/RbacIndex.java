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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RBAC objects of a store, indexed for authorization: roles and cluster roles by name,
 * bindings by subject. Kept current by one watch per kind, drained before each read, so that a
 * binding written through this server authorizes the next request (an informer without lag).
 * A watch that fails is replaced by a fresh list. Thread-safe.
 */
public final class RbacIndex implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RbacIndex.class);
  static final String GROUP = "rbac.authorization.k8s.io";

  /** A binding: the role it grants, where, and to whom. */
  public record Binding(String namespace, String name, String roleKind, String roleName,
      List<Value> subjects) {}

  private final Store store;
  private final Informer roles;
  private final Informer clusterRoles;
  private final Informer roleBindings;
  private final Informer clusterRoleBindings;

  public RbacIndex(Store store) {
    this.store = store;
    this.roles = new Informer("roles");
    this.clusterRoles = new Informer("clusterroles");
    this.roleBindings = new Informer("rolebindings");
    this.clusterRoleBindings = new Informer("clusterrolebindings");
  }

  /** The index as of now: everything stored before the call is in it. */
  public synchronized Snapshot current() {
    boolean changed = roles.drain() | clusterRoles.drain() | roleBindings.drain()
        | clusterRoleBindings.drain();
    if (changed || snapshot == null) {
      snapshot = new Snapshot(roles.objects, clusterRoles.objects, roleBindings.objects,
          clusterRoleBindings.objects);
    }
    return snapshot;
  }

  private Snapshot snapshot;

  @Override
  public synchronized void close() {
    for (Informer i : List.of(roles, clusterRoles, roleBindings, clusterRoleBindings)) {
      i.stop();
    }
  }

  /** One kind's objects by namespace/name, following the store. */
  private final class Informer {
    private final CollectionKey collection;
    private final Map<String, MapValue> objects = new HashMap<>();
    private Watch watch;

    Informer(String plural) {
      this.collection = CollectionKey.all(GROUP, plural);
    }

    /** Applies what changed since the last call; whether anything did. */
    boolean drain() {
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

  /** An immutable view of the index, with bindings by subject. */
  public static final class Snapshot {
    private final Map<String, MapValue> roles;
    private final Map<String, MapValue> clusterRoles;
    private final Map<String, List<Binding>> clusterBindingsBySubject = new HashMap<>();
    private final Map<String, List<Binding>> bindingsBySubject = new HashMap<>();

    Snapshot(Map<String, MapValue> roles, Map<String, MapValue> clusterRoles,
        Map<String, MapValue> roleBindings, Map<String, MapValue> clusterRoleBindings) {
      this.roles = Map.copyOf(roles);
      this.clusterRoles = Map.copyOf(clusterRoles);
      clusterRoleBindings.values().forEach(b -> index(b, clusterBindingsBySubject));
      roleBindings.values().forEach(b -> index(b, bindingsBySubject));
    }

    private static void index(MapValue b, Map<String, List<Binding>> bySubject) {
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
      MapValue role = clusterRoles.get("/" + b.roleName());
      if (role == null || !(Nested.getOrNull(role, "aggregationRule") instanceof MapValue)) {
        return Optional.ofNullable(role);
      }
      return Optional.of(role.with("rules", aggregatedRules(role, clusterRoles.values())));
    }

    /** The union of the rules of the cluster roles {@code role}'s aggregation rule selects. */
    public static io.apiserver4j.core.ListValue aggregatedRules(MapValue role,
        java.util.Collection<MapValue> clusterRoles) {
      List<Value> rules = new ArrayList<>();
      List<io.apiserver4j.core.labels.LabelSelector> selectors = new ArrayList<>();
      for (Value sel : Nested.list(role, "aggregationRule", "clusterRoleSelectors")) {
        selectors.add(Selectors.parse(sel));
      }
      String self = Meta.metaString(role, "name");
      List<MapValue> sorted = new ArrayList<>(clusterRoles);
      sorted.sort(java.util.Comparator.comparing(r -> Meta.metaString(r, "name")));
      for (MapValue other : sorted) {
        if (Meta.metaString(other, "name").equals(self)) {
          continue;
        }
        java.util.Map<String, String> labels = Meta.labels(other);
        if (selectors.stream().anyMatch(sel -> sel.matches(labels))) {
          for (Value rule : Nested.list(other, "rules")) {
            if (!rules.contains(rule)) {
              rules.add(rule);
            }
          }
        }
      }
      return io.apiserver4j.core.ListValue.of(rules);
    }

    public java.util.Collection<MapValue> clusterRoles() {
      return clusterRoles.values();
    }
  }
}
