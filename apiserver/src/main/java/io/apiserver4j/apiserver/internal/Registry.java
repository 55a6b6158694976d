/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apiserver.RegistryListener;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ResourceRegistry;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's {@link ResourceRegistry}: an immutable snapshot replaced on every change, so that
 * lookups never lock. Changes are serialised and reported to listeners after the snapshot is
 * published.
 */
public final class Registry implements ResourceRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(Registry.class);
  private record Snapshot(Map<GroupVersionResource, ResourceDefinition> byResource,
      Map<GroupVersionKind, ResourceDefinition> byKind, List<ResourceDefinition> all) {}

  private volatile Snapshot snapshot = new Snapshot(Map.of(), Map.of(), List.of());
  private final CopyOnWriteArrayList<RegistryListener> listeners = new CopyOnWriteArrayList<>();
  private final Object lock = new Object();
  private volatile CrdInformer informer;

  @Override
  public Optional<ResourceDefinition> find(GroupVersionResource resource) {
    requireNonNull(resource, "resource");
    return Optional.ofNullable(snapshot.byResource.get(resource));
  }

  @Override
  public Optional<ResourceDefinition> findByKind(GroupVersionKind kind) {
    requireNonNull(kind, "kind");
    return Optional.ofNullable(snapshot.byKind.get(kind));
  }

  @Override
  public List<ResourceDefinition> all() {
    return snapshot.all;
  }

  /** All served versions of one group/resource. */
  public List<ResourceDefinition> versionsOf(GroupResource gr) {
    List<ResourceDefinition> out = new ArrayList<>();
    for (ResourceDefinition d : snapshot.all) {
      if (d.groupResource().equals(gr)) {
        out.add(d);
      }
    }
    return out;
  }

  @Override
  public void addListener(RegistryListener listener) {
    listeners.add(requireNonNull(listener, "listener"));
  }

  @Override
  public void removeListener(RegistryListener listener) {
    listeners.remove(requireNonNull(listener, "listener"));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Without a CRD informer (a server that does not serve CustomResourceDefinitions) nothing
   * in storage changes the registry, so it reflects every revision at once.
   */
  @Override
  public boolean awaitRevision(long resourceVersion, Duration timeout) {
    if (resourceVersion < 0) {
      throw new IllegalArgumentException("resourceVersion must not be negative: "
          + resourceVersion);
    }
    requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative: " + timeout);
    }
    CrdInformer i = informer;
    return i == null || i.await(resourceVersion, timeout);
  }

  /** From now on the registry follows the CRDs in storage through {@code crdInformer}. */
  void followedBy(CrdInformer crdInformer) {
    this.informer = requireNonNull(crdInformer, "crdInformer");
  }

  /**
   * Adds a definition.
   *
   * @throws IllegalArgumentException if its resource or kind is already served
   */
  public void add(ResourceDefinition def) {
    addAll(List.of(def));
  }

  /**
   * Adds definitions in one change of the snapshot (a server's build adds every built-in kind:
   * publishing once instead of once per kind), then reports each to the listeners in order.
   * Either all are added or, when one clashes, none.
   *
   * @throws IllegalArgumentException if a resource or kind is already served, or given twice
   */
  public void addAll(List<ResourceDefinition> defs) {
    synchronized (lock) {
      Snapshot s = snapshot;
      java.util.Set<GroupVersionResource> resources = new java.util.HashSet<>();
      java.util.Set<GroupVersionKind> kinds = new java.util.HashSet<>();
      for (ResourceDefinition def : defs) {
        if (s.byResource.containsKey(def.resource()) || !resources.add(def.resource())) {
          throw new IllegalArgumentException("resource " + def.resource()
              + " is already registered");
        }
        if (s.byKind.containsKey(def.kind()) || !kinds.add(def.kind())) {
          throw new IllegalArgumentException("kind " + def.kind() + " is already registered");
        }
      }
      List<ResourceDefinition> all = new ArrayList<>(s.all.size() + defs.size());
      all.addAll(s.all);
      all.addAll(defs);
      publish(all);
    }
    for (ResourceDefinition def : defs) {
      notify(RegistryListener.Change.ADDED, def);
    }
  }

  /**
   * Makes {@code defs} the definitions of group/resource {@code gr}: versions not in the list are
   * removed, new ones added, changed ones replaced.
   *
   * @throws IllegalArgumentException if one of them clashes with another group/resource
   */
  public void replaceGroupResource(GroupResource gr, List<ResourceDefinition> defs) {
    List<Map.Entry<RegistryListener.Change, ResourceDefinition>> changes = new ArrayList<>();
    synchronized (lock) {
      Snapshot s = snapshot;
      Map<GroupVersionResource, ResourceDefinition> old = new LinkedHashMap<>();
      List<ResourceDefinition> all = new ArrayList<>();
      for (ResourceDefinition d : s.all) {
        if (d.groupResource().equals(gr)) {
          old.put(d.resource(), d);
        } else {
          all.add(d);
        }
      }
      for (ResourceDefinition d : defs) {
        if (!d.groupResource().equals(gr)) {
          throw new IllegalArgumentException(d + " is not of " + gr);
        }
        for (ResourceDefinition other : all) {
          if (other.kind().equals(d.kind())) {
            throw new IllegalArgumentException("kind " + d.kind() + " is already registered");
          }
        }
        ResourceDefinition previous = old.remove(d.resource());
        changes.add(Map.entry(previous == null ? RegistryListener.Change.ADDED
            : RegistryListener.Change.REPLACED, d));
        all.add(d);
      }
      old.values().forEach(d -> changes.add(Map.entry(RegistryListener.Change.REMOVED, d)));
      publish(all);
    }
    changes.forEach(c -> notify(c.getKey(), c.getValue()));
  }

  private void publish(List<ResourceDefinition> all) {
    Map<GroupVersionResource, ResourceDefinition> byResource = new LinkedHashMap<>();
    Map<GroupVersionKind, ResourceDefinition> byKind = new LinkedHashMap<>();
    for (ResourceDefinition d : all) {
      byResource.put(d.resource(), d);
      byKind.put(d.kind(), d);
    }
    snapshot = new Snapshot(Map.copyOf(byResource), Map.copyOf(byKind), List.copyOf(all));
  }

  private void notify(RegistryListener.Change change, ResourceDefinition def) {
    for (RegistryListener l : listeners) {
      try {
        l.onChange(change, def);
      } catch (RuntimeException e) {
        // A listener's failure must not fail the request that changed the registry.
        LOG.error("registry listener {} failed on {} of {}", l, change, def.resource(), e);
      }
    }
  }
}
