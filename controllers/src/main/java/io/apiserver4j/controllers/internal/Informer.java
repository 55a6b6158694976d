/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.util.function.Function;

import java.util.ArrayList;

import io.apiserver4j.core.Value;

import io.apiserver4j.admission.matching.LabelSelectors;

import io.apiserver4j.core.labels.LabelSelector;

import io.apiserver4j.core.Nested;

import io.apiserver4j.core.Meta;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.informer.StoreInformer;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.Store;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One resource's shared informer: a {@link StoreInformer} (list, then watch, relist on 410) over
 * the store, its cache (the lister controllers read) and the handlers it calls. Every controller
 * watching the resource shares it. Thread-safe.
 */
public final class Informer {
  private static final Logger LOG = LoggerFactory.getLogger(Informer.class);

  private final ResourceDefinition definition;
  private final StoreInformer informer;
  private final Map<String, MapValue> cache = new ConcurrentHashMap<>();
  private final List<ResourceEventHandler> handlers = new CopyOnWriteArrayList<>();
  private final Activity activity;
  private volatile boolean started;

  Informer(ResourceDefinition definition, Store store, AtomicInteger threads, Activity activity) {
    this.definition = definition;
    this.activity = activity;
    CollectionKey all = CollectionKey.all(definition.groupResource().group(),
        definition.groupResource().resource());
    this.informer = new StoreInformer(store, all, definition.groupResource().toString(),
        "apiserver4j-informer-", threads, new StoreInformer.Target() {
          @Override
          public void apply(String key, MapValue object) {
            Informer.this.apply(key, object);
          }

          @Override
          public Set<String> keys() {
            return Set.copyOf(cache.keySet());
          }

          @Override
          public void applied(long floor) {
            activity.changed();
          }
        });
  }

  /** The resource followed. */
  public ResourceDefinition definition() {
    return definition;
  }

  /**
   * Adds a handler. Before {@link #start} only: a handler added later would miss what was
   * listed.
   *
   * @throws IllegalStateException once started
   */
  public void addHandler(ResourceEventHandler handler) {
    if (started) {
      throw new IllegalStateException("the informer of " + definition.groupResource()
          + " is started; add handlers before");
    }
    handlers.add(handler);
  }

  /** The cached object at {@code namespace}/{@code name} ("" for cluster-scoped). */
  public Optional<MapValue> get(String namespace, String name) {
    return Optional.ofNullable(cache.get(StoreInformer.key(namespace, name)));
  }

  /** The cached objects. */
  public List<MapValue> list() {
    return List.copyOf(cache.values());
  }

  /** The cached objects of {@code namespace}. */
  public List<MapValue> list(String namespace) {
    String prefix = namespace + "/";
    return cache.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .map(Map.Entry::getValue).toList();
  }

  void start() {
    started = true;
    informer.start();
  }

  /** Whether every change up to {@code revision} has reached the handlers. */
  boolean await(long revision, Duration timeout) {
    return informer.await(revision, timeout);
  }

  /**
   * Applies the state of {@code namespace}/{@code name} a write at {@code revision} left (null:
   * deleted) unless a newer one is known. Ignored before {@link #start}: the list at start
   * brings it, after every handler was added.
   */
  void follow(String namespace, String name, MapValue object, long revision) {
    if (started) {
      informer.follow(StoreInformer.key(namespace, name), object, revision);
    }
  }

  void close() {
    informer.close();
  }

  /**
   * Hands every cached object to the handlers as an update to itself, as client-go's informer
   * does with what a reflector's relist delivered (its {@code Replaced} deltas): a reset in
   * place thereby has the controllers look at every object again, re-arming the timers it
   * dropped.
   */
  void replay() {
    for (MapValue object : List.copyOf(cache.values())) {
      for (ResourceEventHandler h : handlers) {
        try {
          h.onUpdate(object, object);
        } catch (RuntimeException e) {
          LOG.error("an event handler of {} failed", definition.groupResource(), e);
        }
      }
    }
    activity.changed();
  }

  private void apply(String key, MapValue object) {
    MapValue old = object == null ? cache.remove(key) : cache.put(key, object);
    if (old == null && object == null || object != null && object.equals(old)) {
      return;
    }
    for (ResourceEventHandler h : handlers) {
      try {
        if (old == null) {
          h.onAdd(object);
        } else if (object == null) {
          h.onDelete(old);
        } else {
          h.onUpdate(old, object);
        }
      } catch (RuntimeException e) {
        LOG.error("an event handler of {} failed", definition.groupResource(), e);
      }
    }
    activity.changed();
  }

  /**
   * kube's {@code resolveControllerRef}: the cached object a controllerRef of kind {@code kind}
   * names, if it still has the UID the reference holds (a re-created namesake is not the owner).
   */
  public Optional<MapValue> resolveControllerRef(String namespace, MapValue ref, String kind) {
    if (!Nested.str(ref, "kind").equals(kind)) {
      return Optional.empty();
    }
    return get(namespace, Nested.str(ref, "name"))
        .filter(o -> Meta.metaString(o, "uid").equals(Nested.str(ref, "uid")));
  }

  /**
   * The cached objects in {@code object}'s namespace whose selector, as {@code selectorOf} reads
   * it, is present, not empty, and selects {@code object}'s labels: the owners that may claim it
   * (kube's {@code getPodReplicaSets}, {@code getPodJobs}, ...).
   */
  public List<MapValue> selecting(MapValue object,
      Function<MapValue, Optional<LabelSelector>> selectorOf) {
    List<MapValue> out = new ArrayList<>();
    Map<String, String> labels = Meta.labels(object);
    for (MapValue owner : list(Meta.metaString(object, "namespace"))) {
      Optional<LabelSelector> selector = selectorOf.apply(owner);
      if (selector.isPresent() && !selector.get().isEverything()
          && selector.get().matches(labels)) {
        out.add(owner);
      }
    }
    return out;
  }

  /** An owner's {@code spec.selector}; empty when it has none or it does not parse. */
  public static Optional<LabelSelector> specSelector(MapValue owner) {
    Value s = Nested.getOrNull(owner, "spec", "selector");
    if (s == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(LabelSelectors.parse(s));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
