/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import io.apiserver4j.apiserver.CollectionOptions;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.answer.StreamedList;
import io.apiserver4j.apiserver.strategy.VirtualRead;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.fields.FieldSelector;
import io.apiserver4j.storage.InitialEvents;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ListResult;
import io.apiserver4j.storage.ResourceVersionMatch;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Watch;
import io.apiserver4j.storage.WatchOptions;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** GET, LIST and WATCH: kube's {@code getResourceHandler}, {@code ListResource} and watch. */
final class ReadHandler {
  private static final GroupKind LIST_OPTIONS = new GroupKind("meta.k8s.io", "ListOptions");
  private static final BigInteger MAX_UINT64 = BigInteger.ONE.shiftLeft(64)
      .subtract(BigInteger.ONE);


  ReadHandler() {}

  ApiResponse get(Scope s) {
    Optional<VirtualRead> virtual =
        s.def().strategy().virtualRead();
    if (virtual.isPresent()) {
      MapValue object = virtual.get().get(s.namespace(), s.name())
          .orElseThrow(() -> StatusErrors.notFound(s.groupResource(), s.name()));
      return new ApiResponse(200, object, s.warnings().list());
    }
    StoredObject stored = stored(s);
    if (StorageForm.servedAsStored(s.def())) {
      // served as stored: a front end may copy its stored bytes instead of decoding them
      return ApiResponse.of(200, stored, s.warnings().list());
    }
    return new ApiResponse(200, StorageForm.fromStorage(s.def(), stored.object()),
        s.warnings().list());
  }

  /**
   * The object as of a state at least as new as {@code revision}: kube's watch cache waits for
   * it (up to 3 s, then 504 Too large resource version), which the store's list does.
   */
  /** The object a GET reads, at least as new as its {@code resourceVersion} asks. */
  static StoredObject stored(Scope s) {
    String rv = s.getOptions().resourceVersion();
    long notOlderThan = rv.isEmpty() ? 0 : parseResourceVersion(rv, false);
    return (notOlderThan > 0 ? atLeast(s, notOlderThan) : s.store().get(s.key()))
        .orElseThrow(() -> StatusErrors.notFound(s.groupResource(), s.name()));
  }

  private static java.util.Optional<StoredObject> atLeast(Scope s, long revision) {
    ListResult r = s.store().list(s.collection(), ListOptions.builder()
        .fieldSelector(FieldSelector.equal("metadata.name", s.name()))
        .notOlderThan(revision).build());
    return r.items().stream().filter(o -> s.key().equals(o.key())).findFirst();
  }

  ApiResponse list(Scope s) {
    Optional<VirtualRead> virtual =
        s.def().strategy().virtualRead();
    if (virtual.isPresent()) {
      return virtualList(s, virtual.get());
    }
    ListResult result = s.store().list(s.collection(), listOptions(s));
    MapValue.Builder meta = MapValue.builder()
        .put("resourceVersion", Value.of(Long.toString(result.resourceVersion())));
    result.continueToken().ifPresent(t -> meta.put("continue", Value.of(t)));
    result.remainingItemCount().ifPresent(n -> meta.put("remainingItemCount", Value.of(n)));
    if (StorageForm.servedAsStored(s.def())) {
      // a built-in item is its stored object without type meta: written as stored, one by one
      return ApiResponse.of(StreamedList.of(listOf(s.def(), List.of(), meta.build()),
          result.items(), item -> item.without("apiVersion").without("kind"),
          java.util.Optional.of(StoredObject.TypeMeta.OMIT)), s.warnings().list());
    }
    ResourceDefinition def = s.def();
    if (def.strategy().converter().convertsWholeLists()) {
      // converted as one list before anything is written (one webhook call)
      List<StoredObject> stored = result.items();
      List<MapValue> objects = new java.util.ArrayList<>(stored.size());
      stored.forEach(o -> objects.add(o.object()));
      List<MapValue> served = StorageForm.fromStorage(def, objects);
      List<StoredObject> items = new java.util.ArrayList<>(stored.size());
      for (int i = 0; i < stored.size(); i++) {
        items.add(new StoredObject(stored.get(i).key(), served.get(i),
            stored.get(i).resourceVersion()));
      }
      return ApiResponse.of(StreamedList.of(listOf(def, List.of(), meta.build()), items,
          item -> item, java.util.Optional.empty()), s.warnings().list());
    }
    // a custom resource is converted, pruned and defaulted as it is read: item by item
    return ApiResponse.of(StreamedList.of(listOf(def, List.of(), meta.build()), result.items(),
        item -> StorageForm.fromStorage(def, item), java.util.Optional.empty()),
        s.warnings().list());
  }

  /**
   * A list computed by a {@link VirtualRead}: its objects the
   * selectors match, with empty list meta, as an aggregated server answers without a storage
   * revision.
   */
  private static ApiResponse virtualList(Scope s,
      VirtualRead read) {
    checkSelectable(s);
    CollectionOptions r = s.collectionOptions();
    List<MapValue> items = new ArrayList<>();
    for (MapValue object : read.list(s.namespace())) {
      if (r.labelSelector().matches(Meta.labels(object))
          && r.fieldSelector().matches(object)) {
        items.add(object);
      }
    }
    return new ApiResponse(200, listOf(s.def(), items, MapValue.empty()), s.warnings().list());
  }

  /** A list object of the endpoint's kind; built-in items drop their type meta, as kube's. */
  static MapValue listOf(ResourceDefinition def, List<MapValue> items, MapValue metadata) {
    ListValue.Builder b = ListValue.builder(items.size());
    for (MapValue item : items) {
      b.add(def.customResource() ? item : item.without("apiVersion").without("kind"));
    }
    return MapValue.ofEntries("apiVersion", Value.of(def.kind().apiVersion()), "items",
        b.build(), "kind", Value.of(def.listKind()), "metadata", metadata);
  }

  ApiWatch watch(Scope s) {
    if (!s.subresource().isEmpty()) {
      throw Endpoints.methodNotAllowed();
    }
    CollectionOptions r = s.collectionOptions();
    checkSelectable(s);
    WatchOptions.Builder b = WatchOptions.builder()
        .labelSelector(r.labelSelector())
        .fieldSelector(r.fieldSelector())
        .allowBookmarks(r.allowWatchBookmarks());
    if (!r.resourceVersion().isEmpty() && !r.resourceVersion().equals("0")) {
      b.resourceVersion(parseResourceVersion(r.resourceVersion(), false));
    }
    r.sendInitialEvents().ifPresent(send -> b.initialEvents(send ? InitialEvents.SEND
        : InitialEvents.SKIP));
    Watch w = s.name().isEmpty() ? s.store().watch(s.collection(), b.build())
        : s.store().watch(s.key(), b.build());
    return new WatchAdapter(w, s.def());
  }

  /** The list options of a list, watch or delete-collection. */
  private static void checkSelectable(Scope s) {
    for (FieldSelector.Term t : s.collectionOptions().fieldSelector().terms()) {
      if (!selectable(s.def(), t.field())) {
        throw StatusErrors.badRequest("field label not supported: " + t.field());
      }
    }
  }

  static ListOptions listOptions(Scope s) {
    CollectionOptions r = s.collectionOptions();
    checkSelectable(s);
    ListOptions.Builder b = r.selection().toBuilder();
    String rv = r.resourceVersion();
    if (r.resourceVersionMatch().isPresent() && rv.isEmpty()) {
      throw StatusErrors.invalid(LIST_OPTIONS, "", List.of(FieldError.forbidden(
          "resourceVersionMatch",
          "resourceVersionMatch is forbidden unless resourceVersion is provided")));
    }
    if (!rv.isEmpty()) {
      long v = parseResourceVersion(rv, true);
      if (r.resourceVersionMatch().orElse(null) == ResourceVersionMatch.EXACT) {
        b.exact(v);
      } else {
        b.notOlderThan(v);
      }
    }
    return b.build();
  }

  private static boolean selectable(ResourceDefinition def, String field) {
    // kube's custom resource converter knows no metadata.namespace of cluster-scoped objects
    boolean namespace = field.equals("metadata.namespace")
        && (def.namespaced() || !def.customResource());
    return field.equals("metadata.name") || namespace
        || def.strategy().selectableFields().contains(field);
  }

  /**
   * A {@code resourceVersion} as kube's storage versioner parses it (a Go {@code uint64}). A list
   * validates its options first and answers 400 {@code invalid resource version: ...}; a get or a
   * watch, served by kube's watch cache, returns the versioner's error unconverted: a 500 with no
   * reason.
   */
  static long parseResourceVersion(String rv, boolean list) {
    String problem = null;
    for (int i = 0; i < rv.length() && problem == null; i++) {
      if (rv.charAt(i) < '0' || rv.charAt(i) > '9') {
        problem = "invalid syntax";
      }
    }
    if (problem == null && (rv.isEmpty() || new BigInteger(rv).compareTo(MAX_UINT64) > 0)) {
      problem = rv.isEmpty() ? "invalid syntax" : "value out of range";
    }
    if (problem == null) {
      BigInteger v = new BigInteger(rv);
      // beyond a long no store has such a revision: the largest one stands for all of them
      return v.bitLength() > 63 ? Long.MAX_VALUE : v.longValue();
    }
    String invalid = "resourceVersion: Invalid value: " + GoStrings.quote(rv)
        + ": strconv.ParseUint: parsing " + GoStrings.quote(rv) + ": " + problem;
    if (list) {
      throw StatusErrors.badRequest("invalid resource version: " + invalid);
    }
    throw StatusException.of(Status.failure(StatusReason.UNKNOWN, invalid));
  }
}
