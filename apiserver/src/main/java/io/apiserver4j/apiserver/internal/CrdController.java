/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import io.apiserver4j.core.ListValue;

/**
 * What kube-apiserver's CustomResourceDefinition controllers do, run synchronously after each
 * CRD write through this server: the naming controller (accepted names, {@code NamesAccepted}),
 * the establishing controller ({@code Established}), stored versions, and the finalizer
 * controller (a deleted CRD takes its objects with it). Which resources are served follows the
 * stored CRDs through {@link CrdInformer}, which is told of this server's own writes at once.
 *
 * <p>Status updates are written through the status endpoint with the manager
 * {@code kube-apiserver}, as the controllers' clients are recorded by kube-apiserver.
 */
final class CrdController implements WriteListener {
  static final GroupVersionResource CRD_RESOURCE =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");
  private static final String CONTROLLER_AGENT = "kube-apiserver/v1.0.0 (linux/amd64)";

  private final Store store;
  private final Registry registry;
  private final CrdInformer informer;
  private final AdmissionStage admission;
  private final Function<ApiRequest, ApiResponse> loopback;
  private final Clock clock;

  CrdController(Store store, Registry registry, CrdInformer informer, AdmissionStage admission,
      Function<ApiRequest, ApiResponse> loopback, Clock clock) {
    this.store = store;
    this.registry = registry;
    this.informer = informer;
    this.admission = admission;
    this.loopback = loopback;
    this.clock = clock;
  }

  private static boolean isCrd(ResourceDefinition def) {
    return def.resource().equals(CRD_RESOURCE);
  }

  @Override
  public void committed(ResourceDefinition def, WriteOutcome outcome) {
    MapValue obj = outcome.object();
    String name = Meta.metaString(obj, "name");
    if (isCrd(def)) {
      if (outcome instanceof WriteOutcome.Deleted d) {
        if (d.revision() > 0) {
          informer.follow(name, null, d.revision());
        } else {
          informer.resync();
        }
      } else if (Meta.hasMeta(obj, "deletionTimestamp")) {
        terminate(obj);
      } else {
        reconcile(name);
      }
    } else if (def.customResource() && outcome instanceof WriteOutcome.Deleted) {
      finishIfEmpty(def.kind().group(), def.plural());
    }
  }

  /** Names, conditions, stored versions and serving of CRD {@code name}. */
  void reconcile(String name) {
    ObjectKey key = crdKey(name);
    Optional<StoredObject> stored = store.get(key);
    if (stored.isEmpty()) {
      return;
    }
    MapValue crd = stored.get().object();
    long storedAt = stored.get().resourceVersion();
    if (Meta.hasMeta(crd, "deletionTimestamp")) {
      informer.follow(name, crd, storedAt);
      return;
    }
    String group = CrdSupport.str(crd, "spec", "group");
    String plural = CrdSupport.str(crd, "spec", "names", "plural");
    String kind = CrdSupport.str(crd, "spec", "names", "kind");
    String time = Meta.formatTime(clock.instant());
    MapValue status = Nested.mapOrNull(crd, "status");
    status = status == null ? MapValue.empty() : status;
    Value conditions = status.getOrNull("conditions");
    String conflict = namesConflict(name, group, plural, kind);
    if (conflict == null) {
      status = status.with("acceptedNames", CrdSupport.requestedNames(crd));
      conditions = CrdSupport.setCondition(conditions, CrdSupport.condition("NamesAccepted",
          "True", "NoConflicts", "no conflicts found", time));
      conditions = CrdSupport.setCondition(conditions, CrdSupport.condition("Established",
          "True", "InitialNamesAccepted", "the initial names have been accepted", time));
    } else {
      conditions = CrdSupport.setCondition(conditions, CrdSupport.condition("NamesAccepted",
          "False", conflict.startsWith("kind:") ? "KindConflict" : "PluralConflict",
          conflict.substring(conflict.indexOf(':') + 1), time));
      // as kube's naming controller: once established, a CRD stays so and keeps being served
      // under its last accepted names
      if (!CrdSupport.conditionTrue(crd, "Established")) {
        conditions = CrdSupport.setCondition(conditions, CrdSupport.condition("Established",
            "False", "NotAccepted", "not all names are accepted", time));
      }
    }
    status = status.with("conditions", conditions);
    List<String> storedVersions = new ArrayList<>(Meta.stringList(status.getOrNull("storedVersions")));
    // from the spec alone: a CRD the server cannot serve still records its storage version
    String storageVersion = CrdSupport.storageVersion(crd);
    if (!storageVersion.isEmpty() && !storedVersions.contains(storageVersion)) {
      storedVersions.add(storageVersion);
    }
    status = status.with("storedVersions", ListValue.ofStrings(storedVersions));
    if (!status.equals(Nested.mapOrNull(crd, "status"))) {
      MapValue body = crd.with("status", status);
      ApiResponse r = loopback.apply(ApiRequest.builder(ApiRequest.Verb.UPDATE, CRD_RESOURCE)
          .name(name).subresource("status").body(body).userAgent(CONTROLLER_AGENT).build());
      if (r.isSuccess()) {
        // the status write's own reconcile followed the CRD as written
        return;
      }
    }
    informer.follow(name, crd, storedAt);
  }

  // Another CRD of the group that already accepted the plural or the kind wins.
  private String namesConflict(String name, String group, String plural, String kind) {
    for (StoredObject o : store.list(CollectionKey.all(CRD_RESOURCE.group(),
        CRD_RESOURCE.resource()), ListOptions.all()).items()) {
      MapValue other = o.object();
      if (Meta.metaString(other, "name").equals(name)
          || !CrdSupport.str(other, "spec", "group").equals(group)) {
        continue;
      }
      if (CrdSupport.str(other, "status", "acceptedNames", "plural").equals(plural)) {
        return "plural:" + GoStrings.quote(plural) + " is already in use";
      }
      if (CrdSupport.str(other, "status", "acceptedNames", "kind").equals(kind)) {
        return "kind:" + GoStrings.quote(kind) + " is already in use";
      }
    }
    for (ResourceDefinition d : registry.all()) {
      if (d.customResource() || !d.kind().group().equals(group)) {
        continue;
      }
      if (d.plural().equals(plural)) {
        return "plural:" + GoStrings.quote(plural) + " is already in use";
      }
      if (d.kind().kind().equals(kind)) {
        return "kind:" + GoStrings.quote(kind) + " is already in use";
      }
    }
    return null;
  }

  private static ObjectKey crdKey(String name) {
    return new ObjectKey(CRD_RESOURCE.group(), CRD_RESOURCE.resource(), "", name);
  }

  /**
   * A CRD delete: the CRD is marked for deletion with the cleanup finalizer and a
   * {@code Terminating} condition (what the response shows); once that is stored, its objects
   * are deleted and, once none is left, the CRD itself.
   */
  MapValue delete(Scope s) {
    String name = s.name();
    ObjectKey key = crdKey(name);
    StoredObject current = s.store().get(key)
        .orElseThrow(() -> StatusErrors.notFound(s.groupResource(), name));
    MapValue crd = current.object();
    Preconditions pre = s.deleteOptions().preconditions();
    pre.check(current);
    admission.admitDelete(s, crd);
    MapValue marked = crd;
    if (!Meta.hasMeta(marked, "deletionTimestamp")) {
      marked = Meta.withMeta(marked, "deletionTimestamp", Value.of(Meta.formatTime(s.now())));
    }
    List<String> finalizers = Meta.finalizers(marked);
    if (!finalizers.contains(CrdSupport.CLEANUP_FINALIZER)) {
      finalizers.add(CrdSupport.CLEANUP_FINALIZER);
      marked = Meta.withFinalizers(marked, finalizers);
    }
    MapValue status = Nested.mapOrNull(marked, "status");
    Value conditions = CrdSupport.setCondition(status == null ? null
        : status.getOrNull("conditions"), CrdSupport.condition("Terminating", "True",
            "InstanceDeletionPending", "CustomResourceDefinition marked for deletion;"
                + " CustomResource deletion will begin soon", Meta.formatTime(s.now())));
    marked = Nested.set(marked, conditions, "status", "conditions");
    MapValue written = s.store().update(key, marked, current.resourceVersion()).object();
    s.committed(new WriteOutcome.Updated(written));
    return written;
  }

  /** A stored CRD being deleted: no new objects from now on, its objects go, then itself. */
  private void terminate(MapValue crd) {
    informer.follow(Meta.metaString(crd, "name"), crd,
        Long.parseLong(Meta.metaString(crd, "resourceVersion")));
    String group = CrdSupport.str(crd, "spec", "group");
    String plural = CrdSupport.str(crd, "spec", "names", "plural");
    deleteInstances(group, plural);
    finishIfEmpty(group, plural);
  }

  private void deleteInstances(String group, String plural) {
    List<ResourceDefinition> defs = registry.versionsOf(new GroupResource(group, plural));
    if (defs.isEmpty()) {
      return;
    }
    ResourceDefinition def = defs.get(0);
    for (StoredObject o : store.list(CollectionKey.all(group, plural), ListOptions.all())
        .items()) {
      ApiRequest.Builder r = ApiRequest.builder(ApiRequest.Verb.DELETE, def.resource())
          .name(Meta.metaString(o.object(), "name")).userAgent(CONTROLLER_AGENT);
      if (def.namespaced()) {
        r.namespace(Meta.metaString(o.object(), "namespace"));
      }
      loopback.apply(r.build());
    }
  }

  /** Removes a terminating CRD whose objects are all gone. */
  private void finishIfEmpty(String group, String plural) {
    String name = plural + "." + group;
    Optional<StoredObject> stored = store.get(crdKey(name));
    if (stored.isEmpty() || !Meta.hasMeta(stored.get().object(), "deletionTimestamp")) {
      return;
    }
    ListOptions one = ListOptions.builder().limit(1).build();
    if (!store.list(CollectionKey.all(group, plural), one).items().isEmpty()) {
      return;
    }
    StoredObject deleted;
    try {
      deleted = store.delete(crdKey(name), Preconditions.none());
    } catch (NotFoundException e) {
      return;
    } catch (StatusException e) {
      return;
    }
    informer.follow(name, null, deleted.resourceVersion());
  }
}
