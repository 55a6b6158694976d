package io.apiserver4j.apiserver.internal;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.NotFoundException;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Preconditions;
import io.apiserver4j.storage.StoredObject;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Namespace deletion as kube-apiserver's namespace registry and namespace controller do it, with
 * the controller's work done synchronously: a delete marks the namespace {@code Terminating}
 * (with a deletionTimestamp), deletes everything in it, and once nothing is left removes the
 * {@code kubernetes} finalizer and the namespace. Objects kept by their own finalizers keep the
 * namespace terminating until the last of them goes.
 */
final class NamespaceController {
  static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
  private static final String CONTROLLER_AGENT = "kube-apiserver/v1.0.0 (linux/amd64)";

  private final Pipeline p;

  NamespaceController(Pipeline p) {
    this.p = p;
  }

  static boolean isNamespace(ResourceDefinition def) {
    return def.resource().equals(NAMESPACES);
  }

  private static ObjectKey key(String name) {
    return new ObjectKey("", "namespaces", "", name);
  }

  /** DELETE of a namespace; returns the response body. */
  MapValue delete(Ctx c, Pipeline.DeleteOptions options) {
    String name = c.name;
    StoredObject current = p.store.get(key(name))
        .orElseThrow(() -> StatusErrors.notFound(new GroupResource("", "namespaces"), name));
    MapValue ns = current.object();
    String uid = Meta.metaString(ns, "uid");
    GroupResource gr = new GroupResource("", "namespaces");
    if (options.uid().isPresent() && !options.uid().get().equals(uid)) {
      throw StatusErrors.conflict(gr, name, "Precondition failed: UID in precondition: "
          + options.uid().get() + ", UID in object meta: " + uid);
    }
    if (options.resourceVersion().isPresent()
        && !options.resourceVersion().get().equals(current.resourceVersionString())) {
      throw StatusErrors.conflict(gr, name, "Precondition failed: ResourceVersion in"
          + " precondition: " + options.resourceVersion().get() + ", ResourceVersion in object"
          + " meta: " + current.resourceVersionString());
    }
    var attrs = p.attributes(c, Operation.DELETE, c.def.kind(), name, null, ns);
    p.admission.admitWithoutObject(attrs);
    p.admission.validate(attrs);
    List<String> specFinalizers = Meta.stringList(Paths.get(ns, "spec", "finalizers"));
    if (!Meta.hasMeta(ns, "deletionTimestamp")) {
      MapValue marked = Meta.withMeta(ns, "deletionTimestamp", Value.of(Meta.formatTime(c.now)));
      marked = Paths.set(marked, Value.of("Terminating"), "status", "phase");
      MapValue written = c.dryRun
          ? p.dryStore.update(key(name), marked, current.resourceVersion()).object()
          : p.store.update(key(name), marked, current.resourceVersion()).object();
      if (!specFinalizers.isEmpty()) {
        if (!c.dryRun) {
          finalizeIfEmpty(name, true);
        }
        return written;
      }
    } else if (!specFinalizers.isEmpty()) {
      throw StatusErrors.conflict(gr, name, "The system is ensuring all content is removed from"
          + " this namespace.  Upon completion, this namespace will automatically be purged by"
          + " the system.");
    }
    if (c.dryRun) {
      p.dryStore.delete(key(name), Preconditions.none());
    } else {
      p.store.delete(key(name), Preconditions.none());
    }
    return Pipeline.successStatus(io.apiserver4j.core.StatusDetails.of(name, "", "namespaces")
        .withUid(uid));
  }

  /** After an object of a namespace was deleted: finishes a terminating namespace left empty. */
  void afterDelete(Ctx c) {
    if (c.def.namespaced() && !c.namespace.isEmpty()) {
      finalizeIfEmpty(c.namespace, false);
    }
  }

  /**
   * The namespace controller: deletes the contents of a terminating namespace (when asked),
   * then the namespace itself once it is empty.
   */
  private void finalizeIfEmpty(String namespace, boolean deleteContents) {
    Optional<StoredObject> stored = p.store.get(key(namespace));
    if (stored.isEmpty() || !Meta.hasMeta(stored.get().object(), "deletionTimestamp")) {
      return;
    }
    Set<GroupResource> seen = new HashSet<>();
    boolean empty = true;
    for (ResourceDefinition def : p.registry.all()) {
      if (!def.namespaced() || !seen.add(def.groupResource())) {
        continue;
      }
      CollectionKey coll = CollectionKey.inNamespace(def.kind().group(), def.plural(), namespace);
      if (deleteContents) {
        for (StoredObject o : p.store.list(coll, ListOptions.all()).items()) {
          p.handle(ApiRequest.builder(ApiRequest.Verb.DELETE, def.resource()).namespace(namespace)
              .name(Meta.metaString(o.object(), "name")).userAgent(CONTROLLER_AGENT).build());
        }
      }
      if (!p.store.list(coll, ListOptions.builder().limit(1).build()).items().isEmpty()) {
        empty = false;
      }
    }
    if (!empty) {
      return;
    }
    try {
      p.store.delete(key(namespace), Preconditions.none());
    } catch (NotFoundException e) {
      // finished by a concurrent request
    } catch (StatusException e) {
      // left terminating; a later delete in the namespace retries
    }
  }
}
