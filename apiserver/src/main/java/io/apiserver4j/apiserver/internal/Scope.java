/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.CollectionOptions;
import io.apiserver4j.apiserver.DeleteCollectionOptions;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.GetOptions;
import io.apiserver4j.apiserver.PatchOptions;
import io.apiserver4j.apiserver.FieldValidation;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import java.time.Instant;

/**
 * One resolved request: the endpoint (definition, namespace, name, subresource), the time it
 * started (every timestamp it writes is this one), the field manager it writes as, where its
 * writes go, and the warnings it raised. Fixed when the request is resolved; the handlers only
 * read it (and add warnings).
 *
 * @param manager the field manager of non-apply writes: {@code fieldManager}, or kube's prefix
 *     of the User-Agent; empty for reads
 * @param writer who writes: a client, or the server itself writing its own objects
 */
record Scope(ApiRequest request, ResourceDefinition def, String namespace, String name,
    String subresource, Instant now, String manager, Storage storage, Warnings warnings,
    Writer writer) {

  /**
   * Who a write comes from. kube-apiserver's endpoint reconciler writes the {@code kubernetes}
   * Endpoints and EndpointSlice straight to storage, so their kinds' validation (which refuses
   * the loopback address an embedded server advertises) never sees them; the server's own
   * writes skip the kind's validation the same way, and nothing else.
   */
  enum Writer { CLIENT, SYSTEM }

  Store store() {
    return storage.store();
  }

  FieldValidation validation() {
    return request.options().fieldValidation();
  }

  /** Whether the request's subresource is served by a Scale view of the parent. */
  boolean scaleView() {
    return def.subresource(subresource).orElse(null) instanceof ScaleSubresource;
  }

  /** The options of a GET. */
  GetOptions getOptions() {
    return (GetOptions) request.options();
  }

  /** The options of a PATCH. */
  PatchOptions patchOptions() {
    return (PatchOptions) request.options();
  }

  /** Which objects a LIST, a WATCH or a DELETE of a collection selects. */
  CollectionOptions collectionOptions() {
    return request.options() instanceof DeleteCollectionOptions d ? d.list()
        : (CollectionOptions) request.options();
  }

  /** How a DELETE, or each delete of a DELETE of a collection, deletes. */
  DeleteOptions deleteOptions() {
    return request.options() instanceof DeleteCollectionOptions d ? d.delete()
        : (DeleteOptions) request.options();
  }

  boolean dryRun() {
    return request.dryRun().isDryRun();
  }

  void warn(String warning) {
    warnings.add(warning);
  }

  GroupResource groupResource() {
    return def.groupResource();
  }

  /** The namespace objects of this endpoint carry: the request's, or none if cluster-scoped. */
  String objectNamespace() {
    return def.namespaced() ? namespace : "";
  }

  ObjectKey key(String objectName) {
    return new ObjectKey(def.kind().group(), def.plural(), objectNamespace(), objectName);
  }

  ObjectKey key() {
    return key(name);
  }

  CollectionKey collection() {
    String group = def.kind().group();
    return def.namespaced() && !namespace.isEmpty()
        ? CollectionKey.inNamespace(group, def.plural(), namespace)
        : CollectionKey.all(group, def.plural());
  }

  /** This scope for one object of its collection (the items of a delete-collection). */
  Scope forObject(String objectNamespace, String objectName) {
    return new Scope(request, def, objectNamespace, objectName, subresource, now, manager,
        storage, warnings, writer);
  }

  /** Tells the storage's listener of a write that reached it, and returns the outcome. */
  WriteOutcome committed(WriteOutcome outcome) {
    storage.listener().committedQuietly(def, outcome);
    return outcome;
  }
}
