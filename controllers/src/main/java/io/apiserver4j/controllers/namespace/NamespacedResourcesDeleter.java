/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.namespace;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.DeleteCollectionOptions;
import io.apiserver4j.apiserver.DeleteOptions;
import io.apiserver4j.apiserver.PropagationPolicy;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.errors.MethodNotAllowedException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's {@code namespacedResourcesDeleter} (pkg/controller/namespace/deletion/
 * namespaced_resources_deleter.go) over the server: for a namespace being deleted, marks it
 * {@code Terminating}, deletes every namespaced resource that can be deleted (by deletecollection,
 * else list and delete one by one, in the background propagation, Pods first as kube's
 * {@code OrderedNamespaceDeletion}), records what remains in the status conditions, and once
 * nothing remains removes its finalizer token {@code kubernetes} through
 * {@code namespaces/finalize} (the server deletes the namespace when its last finalizer goes).
 * Thread-safe; its requests are made as {@code system:serviceaccount:kube-system:
 * namespace-controller}.
 */
final class NamespacedResourcesDeleter {
  private static final Logger LOG = LoggerFactory.getLogger(NamespacedResourcesDeleter.class);
  /** kube's {@code v1.FinalizerKubernetes}, the token this controller removes. */
  static final String FINALIZER_TOKEN = "kubernetes";
  /** kube's {@code finalizerEstimateSeconds}: the wait assumed for an object's finalizers. */
  static final long FINALIZER_ESTIMATE_SECONDS = 15;
  static final GroupVersionResource NAMESPACES =
      new GroupVersionResource("", "v1", "namespaces");
  private static final GroupResource PODS = new GroupResource("", "pods");

  private final ControllerContext context;
  private final UserInfo user;

  NamespacedResourcesDeleter(ControllerContext context, UserInfo user) {
    this.context = context;
    this.user = user;
  }

  /** kube's {@code ResourcesRemainingError}: content is still going away. */
  static final class ResourcesRemaining extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final long estimate;

    ResourcesRemaining(long estimate) {
      super("some content remains in the namespace, estimate " + estimate
          + " seconds before it is removed", null, false, false);
      this.estimate = estimate;
    }

    /** The seconds kube estimates before the content is gone. */
    long estimate() {
      return estimate;
    }
  }

  /** A failure of one pass that is retried with backoff, as kube's returned errors. */
  static final class DeletionFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DeletionFailed(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * kube's {@code Delete}: one pass over the namespace {@code name}.
   *
   * @throws ResourcesRemaining when content is still being removed
   * @throws DeletionFailed when a request failed (the pass is retried)
   */
  void delete(String name) {
    Optional<MapValue> found = context.client(NAMESPACES, user).find(name);
    if (found.isEmpty() || !Meta.hasMeta(found.get(), "deletionTimestamp")) {
      return;
    }
    MapValue namespace;
    try {
      namespace = retryOnConflict(found.get(), this::updateNamespaceStatus);
    } catch (NotFoundException e) {
      return;
    }
    if (!Meta.hasMeta(namespace, "deletionTimestamp") || finalized(namespace)) {
      return;
    }
    long estimate = deleteAllContent(namespace);
    if (estimate > 0) {
      throw new ResourcesRemaining(estimate);
    }
    try {
      retryOnConflict(namespace, this::finalizeNamespace);
    } catch (NotFoundException e) {
      // another controller sharing the token finished the delete
    }
  }

  /** kube's {@code finalized}: no {@code spec.finalizers} left. */
  static boolean finalized(MapValue namespace) {
    return Meta.stringList(Nested.getOrNull(namespace, "spec", "finalizers")).isEmpty();
  }

  /**
   * kube's {@code retryOnConflictError}: {@code update} again on the latest namespace while it
   * conflicts, failing if the namespace was replaced by another of the same name.
   */
  private MapValue retryOnConflict(MapValue namespace, UnaryOperator<MapValue> update) {
    MapValue latest = namespace;
    while (true) {
      try {
        return update.apply(latest);
      } catch (ConflictException e) {
        MapValue previous = latest;
        latest = context.client(NAMESPACES, user).get(Meta.metaString(previous, "name"));
        if (!Meta.metaString(previous, "uid").equals(Meta.metaString(latest, "uid"))) {
          throw new DeletionFailed("namespace uid has changed across retries");
        }
      }
    }
  }

  /** kube's {@code updateNamespaceStatusFunc}: the phase {@code Terminating}. */
  private MapValue updateNamespaceStatus(MapValue namespace) {
    if (!Meta.hasMeta(namespace, "deletionTimestamp")
        || "Terminating".equals(Nested.str(namespace, "status", "phase"))) {
      return namespace;
    }
    return updateStatus(Nested.set(namespace, Value.of("Terminating"), "status", "phase"));
  }

  private MapValue updateStatus(MapValue namespace) {
    return write(namespace, "status");
  }

  private MapValue write(MapValue namespace, String subresource) {
    return context.api().handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NAMESPACES)
        .name(Meta.metaString(namespace, "name")).subresource(subresource)
        .options(UpdateOptions.defaults()).fieldManager(ControllerContext.FIELD_MANAGER)
        .user(user).body(namespace).build()).orThrow();
  }

  /**
   * kube's {@code finalizeNamespace}: the spec finalizers without the token, sorted and without
   * duplicates, written through {@code namespaces/finalize}.
   */
  private MapValue finalizeNamespace(MapValue namespace) {
    Set<String> rest = new TreeSet<>(
        Meta.stringList(Nested.getOrNull(namespace, "spec", "finalizers")));
    rest.remove(FINALIZER_TOKEN);
    MapValue finalizing = Nested.set(namespace, ListValue.ofStrings(rest), "spec",
        "finalizers");
    try {
      return write(finalizing, "finalize");
    } catch (NotFoundException e) {
      return namespace;
    }
  }

  /**
   * The namespaced resources discovery lists with the {@code delete} verb, one version per
   * group and resource (the first the server lists, its preferred one), as kube's
   * {@code ServerPreferredNamespacedResources} filtered by {@code SupportsAllVerbs{delete}}.
   */
  List<ResourceDefinition> deletableResources() {
    Set<GroupResource> seen = new HashSet<>();
    List<ResourceDefinition> out = new ArrayList<>();
    for (ResourceDefinition def : context.api().registry().all()) {
      if (def.namespaced() && def.verbs().contains("delete") && seen.add(def.groupResource())) {
        out.add(def);
      }
    }
    return out;
  }

  /** What remains of one resource after a pass (kube's {@code gvrDeletionMetadata}). */
  record Remaining(long estimate, int count, Map<String, Integer> byFinalizer) {
    static final Remaining NONE = new Remaining(0, 0, Map.of());
  }

  /**
   * kube's {@code deleteAllContent}: deletes the namespace's content, writes the conditions,
   * and returns the estimate of seconds before the rest is gone.
   *
   * @throws DeletionFailed with kube's aggregate of every resource's failure
   */
  long deleteAllContent(MapValue namespace) {
    String name = Meta.metaString(namespace, "name");
    Instant deletedAt = Instant.parse(Meta.metaString(namespace, "deletionTimestamp"));
    NamespaceConditionUpdater conditions =
        new NamespaceConditionUpdater(Meta.formatTime(context.clock().instant()));
    List<String> errors = new ArrayList<>();
    long estimate = 0;
    Map<String, Integer> byResource = new TreeMap<>();
    Map<String, Integer> byFinalizer = new TreeMap<>();
    List<ResourceDefinition> resources = deletableResources();
    Optional<ResourceDefinition> pods = resources.stream()
        .filter(d -> d.groupResource().equals(PODS)).findFirst();
    if (pods.isPresent()) {
      // kube's OrderedNamespaceDeletion: the Pods go before what they may still be using
      estimate = Math.max(estimate, pass(pods.get(), name, deletedAt, errors, conditions,
          byResource, byFinalizer));
      if (byResource.containsKey(key(pods.get()))) {
        writeConditions(namespace, conditions);
        throwIfFailed(errors);
        return estimate;
      }
    }
    for (ResourceDefinition def : resources) {
      if (!def.groupResource().equals(PODS)) {
        estimate = Math.max(estimate, pass(def, name, deletedAt, errors, conditions,
            byResource, byFinalizer));
      }
    }
    conditions.processContentTotals(byResource, byFinalizer);
    writeConditions(namespace, conditions);
    throwIfFailed(errors);
    return estimate;
  }

  private long pass(ResourceDefinition def, String namespace, Instant deletedAt,
      List<String> errors, NamespaceConditionUpdater conditions, Map<String, Integer> byResource,
      Map<String, Integer> byFinalizer) {
    Remaining r;
    try {
      r = deleteAllContentFor(def, namespace, deletedAt);
    } catch (ContentFailure e) {
      errors.add(e.getMessage());
      conditions.processDeleteContentError(e.getMessage());
      r = e.remaining;
    }
    if (r.count() > 0) {
      byResource.put(key(def), r.count());
      r.byFinalizer().forEach((f, n) -> {
        if (n != 0) {
          byFinalizer.merge(f, n, Integer::sum);
        }
      });
    }
    return r.estimate();
  }

  /** kube's {@code GroupVersionResource} key in the remaining-content message. */
  private static String key(ResourceDefinition def) {
    return def.plural() + "." + def.kind().group();
  }

  private void writeConditions(MapValue namespace, NamespaceConditionUpdater conditions) {
    Optional<MapValue> updated = conditions.update(namespace);
    if (updated.isEmpty()) {
      return;
    }
    try {
      updateStatus(updated.get());
    } catch (StatusException e) {
      // kube's HandleError: the next pass writes them again
      LOG.warn("couldn't update status condition for namespace \"{}\": {}",
          Meta.metaString(namespace, "name"), e.getMessage());
    }
  }

  /** kube's {@code utilerrors.NewAggregate} of the pass's failures, thrown. */
  private static void throwIfFailed(List<String> errors) {
    if (errors.size() == 1) {
      throw new DeletionFailed(errors.get(0));
    }
    if (!errors.isEmpty()) {
      throw new DeletionFailed("[" + String.join(", ", errors) + "]");
    }
  }

  /** A resource's failure with what is known of its remaining content. */
  private static final class ContentFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Remaining remaining;

    ContentFailure(String message, Remaining remaining) {
      super(message, null, false, false);
      this.remaining = remaining;
    }
  }

  /** kube's {@code deleteAllContentForGroupVersionResource}. */
  private Remaining deleteAllContentFor(ResourceDefinition def, String namespace,
      Instant deletedAt) {
    long estimate;
    try {
      estimate = estimateGracefulTermination(def, namespace, deletedAt);
    } catch (StatusException e) {
      throw new ContentFailure(e.getMessage(), Remaining.NONE);
    }
    Remaining withEstimate = new Remaining(estimate, 0, Map.of());
    try {
      if (!deleteCollection(def, namespace)) {
        deleteEachItem(def, namespace);
      }
    } catch (StatusException e) {
      throw new ContentFailure(e.getMessage(), withEstimate);
    }
    Optional<List<MapValue>> left;
    try {
      left = listCollection(def, namespace);
    } catch (StatusException e) {
      throw new ContentFailure(e.getMessage(), withEstimate);
    }
    if (left.isEmpty()) {
      return withEstimate;
    }
    if (left.get().isEmpty()) {
      return Remaining.NONE;
    }
    Map<String, Integer> finalizers = new LinkedHashMap<>();
    for (MapValue item : left.get()) {
      for (String f : Meta.finalizers(item)) {
        finalizers.merge(f, 1, Integer::sum);
      }
    }
    int count = left.get().size();
    if (estimate != 0) {
      return new Remaining(estimate, count, finalizers);
    }
    if (!finalizers.isEmpty()) {
      return new Remaining(FINALIZER_ESTIMATE_SECONDS, count, finalizers);
    }
    throw new ContentFailure("unexpected items still remain in namespace: " + namespace
        + " for gvr: " + gvr(def), new Remaining(estimate, count, Map.of()));
  }

  /** Go's {@code GroupVersionResource.String()}. */
  private static String gvr(ResourceDefinition def) {
    return def.kind().group() + "/" + def.kind().version() + ", Resource=" + def.plural();
  }

  /**
   * kube's {@code deleteCollection}: whether the resource supports deletecollection (after
   * deleting its objects in the namespace, in the background).
   */
  private boolean deleteCollection(ResourceDefinition def, String namespace) {
    if (!def.verbs().contains("deletecollection")) {
      return false;
    }
    try {
      context.client(def.resource(), user).namespace(namespace).deleteCollection(
          DeleteCollectionOptions.of(DeleteOptions.of(PropagationPolicy.BACKGROUND)));
      return true;
    } catch (MethodNotAllowedException | NotFoundException e) {
      return false;
    }
  }

  /** kube's {@code listCollection}: the objects left, empty when listing is not supported. */
  private Optional<List<MapValue>> listCollection(ResourceDefinition def, String namespace) {
    if (!def.verbs().contains("list")) {
      return Optional.empty();
    }
    try {
      return Optional.of(context.client(def.resource(), user).namespace(namespace).list());
    } catch (MethodNotAllowedException | NotFoundException e) {
      return Optional.empty();
    }
  }

  /** kube's {@code deleteEachItem}. */
  private void deleteEachItem(ResourceDefinition def, String namespace) {
    Optional<List<MapValue>> items = listCollection(def, namespace);
    if (items.isEmpty()) {
      return;
    }
    for (MapValue item : items.get()) {
      try {
        context.client(def.resource(), user).namespace(namespace).delete(
            Meta.metaString(item, "name"), DeleteOptions.of(PropagationPolicy.BACKGROUND));
      } catch (NotFoundException | MethodNotAllowedException e) {
        // gone already, or not deletable one by one
      }
    }
  }

  /**
   * kube's {@code estimateGracefulTermination}: for Pods, the longest
   * {@code terminationGracePeriodSeconds} of those not finished, or 0 once that long has
   * passed since the namespace's deletion; 0 for everything else.
   */
  long estimateGracefulTermination(ResourceDefinition def, String namespace, Instant deletedAt) {
    if (!def.groupResource().equals(PODS)) {
      return 0;
    }
    long estimate = 0;
    for (MapValue pod : context.client(def.resource(), user).namespace(namespace).list()) {
      String phase = Nested.str(pod, "status", "phase");
      if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
        continue;
      }
      if (Nested.has(pod, "spec", "terminationGracePeriodSeconds")) {
        estimate = Math.max(estimate,
            Nested.integer(pod, "spec", "terminationGracePeriodSeconds"));
      }
    }
    Duration since = Duration.between(deletedAt, context.clock().instant());
    return since.compareTo(Duration.ofSeconds(estimate)) >= 0 ? 0 : estimate;
  }
}
