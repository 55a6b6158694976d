/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.Store;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.apiserver4j.apiserver.informer.StoreInformer;

/**
 * Serves custom resources from the CustomResourceDefinitions in storage, whoever wrote them: what
 * kube-apiserver's apiextensions server does with its CRD informer. A {@link StoreInformer} lists
 * the stored CRDs when the server starts and follows every change (and, synchronously, writes
 * through this server: {@link #follow}), applying a state only if it is newer than what is known
 * of that CRD. A CRD is served while it is {@code Established}, with its accepted names, and is
 * marked terminating (no new objects) once it is being deleted.
 *
 * <p>Never writes: CRD status and the deletion of a deleted CRD's objects stay with the server
 * whose request caused them ({@link CrdController}), so they happen once.
 */
final class CrdInformer {
  private static final Logger LOG = LoggerFactory.getLogger(CrdInformer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  static final String THREAD_PREFIX = "apiserver4j-crd-informer-";

  /** What one CRD makes this server serve. */
  private record Served(GroupResource resource, Value shape, boolean terminating) {}

  private final Registry registry;
  private final StoreInformer informer;
  /** By CRD name: the CRDs currently served. Only the informer's target callbacks touch it. */
  private final Map<String, Served> served = new HashMap<>();
  private volatile Set<GroupResource> terminating = Set.of();

  CrdInformer(Store store, Registry registry) {
    this.registry = registry;
    this.informer = new StoreInformer(store, CollectionKey.all(
        CrdController.CRD_RESOURCE.group(), CrdController.CRD_RESOURCE.resource()),
        "CustomResourceDefinitions", THREAD_PREFIX, THREADS, new StoreInformer.Target() {
          @Override
          public void apply(String key, MapValue crd) {
            CrdInformer.this.apply(key.substring(key.indexOf('/') + 1), crd);
          }

          @Override
          public Set<String> keys() {
            Set<String> keys = new LinkedHashSet<>();
            served.keySet().forEach(name -> keys.add(StoreInformer.key("", name)));
            return keys;
          }
        });
  }

  /**
   * Serves the established CRDs in storage, then starts following changes in the background.
   *
   * @throws io.apiserver4j.core.errors.StatusException if the CRDs cannot be listed
   */
  void start() {
    informer.start();
  }

  /** Stops the background watch and waits for its thread to end. Idempotent. */
  void close() {
    informer.close();
  }

  /** Whether the CRD of {@code resource} is being deleted, so that no new objects are allowed. */
  boolean terminating(GroupResource resource) {
    return terminating.contains(resource);
  }

  /**
   * Applies the state of CRD {@code name} as of revision {@code asOf} (the revision it was read
   * at, or was deleted at when {@code crd} is null) unless a newer state is known.
   */
  void follow(String name, MapValue crd, long asOf) {
    informer.follow(StoreInformer.key("", name), crd, asOf);
  }

  /**
   * Lists the CRDs and applies the state they show (what an informer's relist does).
   *
   * @return the revision of the list
   */
  long resync() {
    return informer.resync();
  }

  /**
   * Waits until every CRD change up to {@code revision} is applied. When the watch has not got
   * that far yet but the store has, the CRDs are listed at once rather than waiting for the
   * watch (which may see no CRD event, and so no progress, for a long time).
   *
   * @return whether that happened within {@code timeout}; false if interrupted (the interrupt
   *     status is kept) or stopped before
   */
  boolean await(long revision, Duration timeout) {
    return informer.await(revision, timeout);
  }

  // --- applying a state, under the informer's lock ----------------------------------------

  /** Makes the registry serve what {@code crd} (null: a deleted CRD) asks for. */
  private void apply(String name, MapValue crd) {
    Served before = served.get(name);
    Served after;
    try {
      after = crd == null ? null : servedBy(crd);
    } catch (RuntimeException e) {
      // not a CRD this server can make sense of: it serves nothing
      LOG.warn("CustomResourceDefinition {} cannot be served", name, e);
      after = null;
    }
    if (before != null && (after == null || !before.resource().equals(after.resource()))) {
      setServed(before.resource(), List.of());
    }
    if (after != null && (before == null || !before.resource().equals(after.resource())
        || !before.shape().equals(after.shape()))) {
      List<ResourceDefinition> definitions;
      try {
        definitions = CrdSupport.definitions(CrdSupport.servedView(crd));
      } catch (RuntimeException e) {
        // a CRD this server cannot derive definitions from is not served
        LOG.warn("CustomResourceDefinition {} cannot be served", name, e);
        definitions = null;
      }
      if (definitions == null || !setServed(after.resource(), definitions)) {
        setServed(after.resource(), List.of());
        after = null;
      }
    }
    if (after == null) {
      served.remove(name);
    } else {
      served.put(name, after);
    }
    Set<GroupResource> t = new HashSet<>();
    for (Served s : served.values()) {
      if (s.terminating()) {
        t.add(s.resource());
      }
    }
    if (!t.equals(terminating)) {
      terminating = Set.copyOf(t);
    }
  }

  /**
   * What an established CRD serves, null for one that is not. kube serves a CRD's resources once
   * it is {@code Established} and keeps them while it is terminating.
   */
  private static Served servedBy(MapValue crd) {
    if (!CrdSupport.conditionTrue(crd, "Established")) {
      return null;
    }
    MapValue view = CrdSupport.servedView(crd);
    GroupResource resource = new GroupResource(CrdSupport.str(view, "spec", "group"),
        CrdSupport.str(view, "spec", "names", "plural"));
    if (resource.resource().isEmpty()) {
      return null;
    }
    Value spec = view.getOrNull("spec");
    return new Served(resource, spec == null ? Value.nullValue() : spec,
        CrdSupport.terminating(crd));
  }

  /**
   * Serves {@code definitions} as group/resource {@code resource}, unless definitions that did
   * not come from a CRD (built-in or given to the builder) serve it.
   *
   * @return false if the definitions clash with other served resources, or are refused
   */
  private boolean setServed(GroupResource resource, List<ResourceDefinition> definitions) {
    List<ResourceDefinition> existing = registry.versionsOf(resource);
    for (ResourceDefinition d : existing) {
      if (!d.customResource()) {
        return false;
      }
    }
    if (existing.isEmpty() && definitions.isEmpty()) {
      return true;
    }
    try {
      registry.replaceGroupResource(resource, definitions);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
