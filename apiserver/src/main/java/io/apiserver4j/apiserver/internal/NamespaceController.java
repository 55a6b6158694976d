/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Namespace deletion as kube-apiserver's namespace registry and namespace controller do it, with
 * the controller's work done synchronously: a delete marks the namespace {@code Terminating}
 * (with a deletionTimestamp); once that is stored, everything in it is deleted through the
 * loopback client and, when nothing is left, the {@code kubernetes} finalizer goes with the
 * namespace. Objects kept by their own finalizers keep the namespace terminating until the last
 * of them goes.
 *
 * <p>The registry part ({@link #delete}) always runs; the controller part runs until it is
 * handed over to a controller manager's {@code namespace} controller, and catches up when it is
 * handed back (see {@link #start}).
 */
final class NamespaceController implements WriteListener {
  static final GroupResource NAMESPACES = new GroupResource("", "namespaces");
  private static final String CONTROLLER_AGENT = "kube-apiserver/v1.0.0 (linux/amd64)";

  private final Store store;
  private final Registry registry;
  private final AdmissionStage admission;
  private final Function<ApiRequest, ApiResponse> loopback;
  /** Whether the controller part runs; it does from the start, until handed over. */
  private volatile boolean running = true;

  NamespaceController(Store store, Registry registry, AdmissionStage admission,
      Function<ApiRequest, ApiResponse> loopback) {
    this.store = store;
    this.registry = registry;
    this.admission = admission;
    this.loopback = loopback;
  }

  private static ObjectKey key(String name) {
    return new ObjectKey("", "namespaces", "", name);
  }

  /** The namespace registry's DELETE; returns the response body. */
  MapValue delete(Scope s) {
    String name = s.name();
    StoredObject current = s.store().get(key(name))
        .orElseThrow(() -> StatusErrors.notFound(NAMESPACES, name));
    MapValue ns = current.object();
    String uid = Meta.metaString(ns, "uid");
    Preconditions r = s.deleteOptions().preconditions();
    if (r.uid().isPresent() && !r.uid().get().equals(uid)) {
      throw StatusErrors.conflict(NAMESPACES, name, "Precondition failed: UID in precondition: "
          + r.uid().get() + ", UID in object meta: " + uid);
    }
    if (r.resourceVersion().isPresent()
        && !r.resourceVersion().get().equals(current.resourceVersionString())) {
      throw StatusErrors.conflict(NAMESPACES, name, "Precondition failed: ResourceVersion in"
          + " precondition: " + r.resourceVersion().get() + ", ResourceVersion in"
          + " object meta: " + current.resourceVersionString());
    }
    admission.admitDelete(s, ns);
    List<String> specFinalizers = Meta.stringList(Nested.getOrNull(ns, "spec", "finalizers"));
    if (!Meta.hasMeta(ns, "deletionTimestamp")) {
      MapValue marked = Meta.withMeta(ns, "deletionTimestamp",
          Value.of(Meta.formatTime(s.now())));
      marked = Nested.set(marked, Value.of("Terminating"), "status", "phase");
      MapValue written = s.store().update(key(name), marked, current.resourceVersion()).object();
      if (!specFinalizers.isEmpty()) {
        s.committed(new WriteOutcome.Updated(written));
        return written;
      }
    } else if (!specFinalizers.isEmpty()) {
      throw StatusErrors.conflict(NAMESPACES, name, "The system is ensuring all content is"
          + " removed from this namespace.  Upon completion, this namespace will automatically"
          + " be purged by the system.");
    }
    StoredObject deleted = s.store().delete(key(name), Preconditions.none());
    s.committed(new WriteOutcome.Deleted(deleted.object(), deleted.resourceVersion()));
    return DeleteHandler.successStatus(StatusDetails.of(name, "", "namespaces").withUid(uid));
  }

  /**
   * Runs the controller part (again); after it was stopped, every terminating namespace is
   * worked on at once, for what changed meanwhile. Closing the result stops it.
   */
  AutoCloseable start() {
    boolean wasStopped = !running;
    running = true;
    if (wasStopped) {
      for (StoredObject ns : store.list(CollectionKey.all("", "namespaces"), ListOptions.all())
          .items()) {
        if (Meta.hasMeta(ns.object(), "deletionTimestamp")) {
          finalizeIfEmpty(Meta.metaString(ns.object(), "name"), true);
        }
      }
    }
    return () -> running = false;
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    if (!running) {
      return;
    }
    MapValue obj = outcome.object();
    if (def.groupResource().equals(NAMESPACES)) {
      if (outcome instanceof WriteOutcome.Updated && Meta.hasMeta(obj, "deletionTimestamp")) {
        finalizeIfEmpty(Meta.metaString(obj, "name"), true);
      }
    } else if (outcome instanceof WriteOutcome.Deleted && def.namespaced()) {
      finalizeIfEmpty(Meta.metaString(obj, "namespace"), false);
    }
  }

  /**
   * The namespace controller: deletes the contents of a terminating namespace (when asked),
   * then the namespace itself once it is empty.
   */
  private void finalizeIfEmpty(String namespace, boolean deleteContents) {
    if (namespace.isEmpty()) {
      return;
    }
    Optional<StoredObject> stored = store.get(key(namespace));
    if (stored.isEmpty() || !Meta.hasMeta(stored.get().object(), "deletionTimestamp")) {
      return;
    }
    Set<GroupResource> seen = new HashSet<>();
    boolean empty = true;
    for (ResourceDefinition def : registry.all()) {
      if (!def.namespaced() || !seen.add(def.groupResource())) {
        continue;
      }
      CollectionKey coll = CollectionKey.inNamespace(def.kind().group(), def.plural(), namespace);
      if (deleteContents) {
        for (StoredObject o : store.list(coll, ListOptions.all()).items()) {
          loopback.apply(ApiRequest.builder(ApiRequest.Verb.DELETE, def.resource())
              .namespace(namespace).name(Meta.metaString(o.object(), "name"))
              .userAgent(CONTROLLER_AGENT).build());
        }
      }
      if (!store.list(coll, ListOptions.builder().limit(1).build()).items().isEmpty()) {
        empty = false;
      }
    }
    if (!empty) {
      return;
    }
    try {
      store.delete(key(namespace), Preconditions.none());
    } catch (NotFoundException e) {
      // finished by a concurrent request
    } catch (StatusException e) {
      // left terminating; a later delete in the namespace retries
    }
  }
}
