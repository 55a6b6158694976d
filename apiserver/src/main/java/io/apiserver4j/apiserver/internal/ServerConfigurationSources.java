/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.matching.ConfigurationSource;
import io.apiserver4j.admission.matching.ConfigurationSources;
import io.apiserver4j.admission.matching.EquivalentResources;
import io.apiserver4j.admission.matching.NamespaceLookup;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import io.apiserver4j.apiserver.informer.ConfigurationInformer;

/**
 * The server's {@link ConfigurationSources}: one {@link ConfigurationInformer} per resource asked
 * for, started on first use and told of this server's writes of that resource (a
 * {@link WriteListener}); namespaces followed the same way once a selector needs them, a miss
 * read from storage; equivalents from the served versions of a resource. Thread-safe; {@link #close()} stops every informer.
 */
final class ServerConfigurationSources implements ConfigurationSources, WriteListener {
  private static final GroupResource NAMESPACES = new GroupResource("", "namespaces");

  private final Store store;
  private final Registry registry;
  private final Map<GroupResource, ConfigurationInformer> informers = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private volatile Supplier<Map<String, MapValue>> namespaceIndex;

  ServerConfigurationSources(Store store, Registry registry) {
    this.store = store;
    this.registry = registry;
  }

  @Override
  public ConfigurationSource source(GroupResource resource) {
    requireNonNull(resource, "resource");
    ConfigurationInformer existing = informers.get(resource);
    if (existing != null) {
      return existing;
    }
    synchronized (this) {
      if (closed) {
        throw new IllegalStateException("the server is closed");
      }
      ConfigurationInformer informer = informers.get(resource);
      if (informer == null) {
        informer = new ConfigurationInformer(store,
            CollectionKey.all(resource.group(), resource.resource()));
        informer.start();
        informers.put(resource, informer);
      }
      return informer;
    }
  }

  @Override
  public NamespaceLookup namespaces() {
    return this::namespace;
  }

  private Optional<MapValue> namespace(String name) {
    if (name.isEmpty()) {
      return Optional.empty();
    }
    Supplier<Map<String, MapValue>> index = namespaceIndex;
    if (index == null) {
      // followed from the first namespace selector on, like kube's namespace lister
      index = source(NAMESPACES).derived(s -> {
        Map<String, MapValue> byName = new HashMap<>();
        s.objects().forEach(o -> byName.put(Meta.metaString(o, "name"), o));
        return byName;
      });
      namespaceIndex = index;
    }
    MapValue known = index.get().get(name);
    if (known != null) {
      return Optional.of(known);
    }
    // as kube, a miss is read from storage: the namespace may be newer than what was followed
    return store.get(new ObjectKey("", NAMESPACES.resource(), "", name))
        .map(StoredObject::object);
  }

  @Override
  public EquivalentResources equivalents() {
    return new EquivalentResources() {
      @Override
      public List<GroupVersionResource> equivalents(GroupVersionResource r, String sub) {
        List<GroupVersionResource> out = new ArrayList<>();
        for (ResourceDefinition d : registry.versionsOf(r.groupResource())) {
          if (sub.isEmpty() || d.servesSubresource(sub) || hasDiscoverySubresource(d, sub)) {
            out.add(d.resource());
          }
        }
        if (!out.contains(r)) {
          out.add(0, r);
        }
        return out;
      }

      @Override
      public Optional<GroupVersionKind> kindFor(GroupVersionResource r, String sub) {
        return registry.find(r).flatMap(d -> sub.isEmpty() ? Optional.of(d.kind())
            : d.discoverySubresources().stream().filter(s -> s.name().equals(sub))
                .map(ResourceDefinition.Subresource::kind).findFirst());
      }
    };
  }

  private static boolean hasDiscoverySubresource(ResourceDefinition d, String sub) {
    return d.discoverySubresources().stream().anyMatch(s -> s.name().equals(sub));
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    ConfigurationInformer informer = informers.get(def.groupResource());
    if (informer == null) {
      return;
    }
    MapValue obj = outcome.object();
    ObjectKey key = new ObjectKey(def.kind().group(), def.plural(),
        def.namespaced() ? Meta.metaString(obj, "namespace") : "", Meta.metaString(obj, "name"));
    if (outcome instanceof WriteOutcome.Deleted d) {
      informer.deleted(key, d.revision());
    } else {
      informer.refresh(key);
    }
  }

  /** Stops every informer. Idempotent. */
  void close() {
    List<ConfigurationInformer> all;
    synchronized (this) {
      closed = true;
      all = new ArrayList<>(informers.values());
    }
    all.forEach(ConfigurationInformer::close);
  }
}
