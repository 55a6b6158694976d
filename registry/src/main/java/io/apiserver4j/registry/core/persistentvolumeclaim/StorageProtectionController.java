/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.persistentvolumeclaim;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.informer.StoreInformer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code pvc-protection} and {@code pv-protection} controllers, which
 * ship with the {@link StorageObjectInUseProtection} plugin: the plugin puts its finalizer on every
 * new claim and volume, and without these a deleted claim or volume would stay forever. A claim
 * being deleted loses {@code kubernetes.io/pvc-protection} once no Pod that has not finished uses
 * it (by {@code persistentVolumeClaim.claimName}, or as the {@code <pod>-<volume>} claim of an
 * ephemeral volume); a volume being deleted loses {@code kubernetes.io/pv-protection} once it is
 * not {@code Bound}; a claim or volume not being deleted that lacks its finalizer (made before
 * the plugin was on) gets it, as kube's {@code needToAddFinalizer}. Writes go through the server
 * as the controllers' service accounts. The one implementation of both: a controller manager
 * that runs {@code pvc-protection} or {@code pv-protection} takes the server's over and runs it.
 */
public final class StorageProtectionController implements AutoCloseable {
  /** kube-controller-manager's name of the claim controller. */
  public static final String PVC_NAME = "pvc-protection";
  /** kube-controller-manager's name of the volume controller. */
  public static final String PV_NAME = "pv-protection";
  private static final Logger LOG = LoggerFactory.getLogger(StorageProtectionController.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");

  private final ApiServer server;
  private final Store store;
  private final boolean claims;
  private final UserInfo user;
  private final String userAgent;
  private final ScheduledExecutorService worker;
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  private final List<StoreInformer> informers = new ArrayList<>();

  private StorageProtectionController(ApiServer server, Store store, boolean claims) {
    this.server = server;
    this.store = store;
    this.claims = claims;
    String controller = claims ? PVC_NAME : PV_NAME;
    this.user = UserInfo.of("system:serviceaccount:kube-system:" + controller + "-controller",
        "system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated");
    this.userAgent = "kube-controller-manager/v1.36.0 (linux/amd64) kubernetes/" + controller;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, controller + "-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts the claim controller ({@code pvc-protection}); the caller closes it. */
  public static StorageProtectionController startForClaims(ApiServer server, Store store) {
    return new StorageProtectionController(server, store, true).start();
  }

  /** Starts the volume controller ({@code pv-protection}); the caller closes it. */
  public static StorageProtectionController startForVolumes(ApiServer server, Store store) {
    return new StorageProtectionController(server, store, false).start();
  }

  private StorageProtectionController start() {
    GroupVersionResource own = claims ? PVCS : PVS;
    informers.add(new StoreInformer(store, CollectionKey.all("", own.resource()), own.resource(),
        "storage-protection-", THREADS, target(false)));
    if (claims) {
      // a Pod that finishes or goes may free the claims it names
      informers.add(new StoreInformer(store, CollectionKey.all("", "pods"), "pods",
          "storage-protection-", THREADS, target(true)));
    }
    informers.forEach(StoreInformer::start);
    return this;
  }

  private StoreInformer.Target target(boolean pods) {
    Set<String> keys = ConcurrentHashMap.newKeySet();
    return new StoreInformer.Target() {
      @Override
      public void apply(String key, MapValue object) {
        if (object == null) {
          keys.remove(key);
        } else {
          keys.add(key);
        }
        if (!pods) {
          enqueue(key);
          return;
        }
        // the claims of a Pod: on its deletion the informer hands no object, so a deleted
        // Pod's namespace is swept for claims being deleted
        String namespace = key.substring(0, key.indexOf('/'));
        if (object == null) {
          sweepDeletingClaims(namespace);
        } else {
          claimNames(object).forEach(c -> enqueue(namespace + "/" + c));
        }
      }

      @Override
      public Set<String> keys() {
        return Set.copyOf(keys);
      }
    };
  }

  private void sweepDeletingClaims(String namespace) {
    for (StoredObject o : store.list(CollectionKey.inNamespace("", "persistentvolumeclaims",
        namespace), ListOptions.all()).items()) {
      if (Nested.has(o.object(), "metadata", "deletionTimestamp")) {
        enqueue(namespace + "/" + Meta.metaString(o.object(), "name"));
      }
    }
  }

  private void enqueue(String key) {
    if (queued.add(key)) {
      try {
        worker.execute(() -> {
          queued.remove(key);
          sync(key, 0);
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        queued.remove(key);
      }
    }
  }

  /** Removes the finalizer of {@code key} if it is being deleted and no longer in use. */
  private void sync(String key, int failures) {
    try {
      int slash = key.indexOf('/');
      String namespace = slash < 0 ? "" : key.substring(0, slash);
      String name = key.substring(slash + 1);
      ObjectKey objectKey = claims ? ObjectKey.namespaced("", "persistentvolumeclaims",
          namespace, name) : ObjectKey.clusterScoped("", "persistentvolumes", name);
      Optional<StoredObject> stored = store.get(objectKey);
      String finalizer = claims ? StorageObjectInUseProtection.PVC_FINALIZER
          : StorageObjectInUseProtection.PV_FINALIZER;
      if (stored.isEmpty()) {
        return;
      }
      boolean deleting = Nested.has(stored.get().object(), "metadata", "deletionTimestamp");
      List<String> rest = new ArrayList<>(Meta.finalizers(stored.get().object()));
      if (!deleting && !rest.contains(finalizer)) {
        // kube's needToAddFinalizer: one made before the admission plugin was on gets it
        rest.add(finalizer);
      } else if (!deleting || !rest.contains(finalizer)
          || (claims ? claimInUse(namespace, name) : volumeInUse(stored.get().object()))) {
        return;
      } else {
        rest.remove(finalizer);
      }
      ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, claims ? PVCS : PVS)
          .namespace(namespace).name(name).user(user).userAgent(userAgent)
          .body(Meta.withFinalizers(stored.get().object(), rest)).build());
      if (r.code() == 409 || r.code() >= 500) {
        retry(key, failures + 1);
      } else if (r.code() >= 400 && r.code() != 404) {
        LOG.warn("cannot update {} of {}: {}", finalizer, key, Nested.str(r.body(), "message"));
      }
    } catch (RuntimeException e) {
      if (!worker.isShutdown()) {
        LOG.warn("storage protection of {} failed", key, e);
        retry(key, failures + 1);
      }
    }
  }

  private void retry(String key, int failures) {
    long delay = Math.min(1000L, 5L << Math.min(failures - 1, 10));
    try {
      worker.schedule(() -> sync(key, failures), delay, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // stopped
    }
  }

  /** kube's isBeingUsed: a Pod of the namespace that has not finished names the claim. */
  private boolean claimInUse(String namespace, String claim) {
    for (StoredObject o : store.list(CollectionKey.inNamespace("", "pods", namespace),
        ListOptions.all()).items()) {
      String phase = Nested.str(o.object(), "status", "phase");
      if (!phase.equals("Succeeded") && !phase.equals("Failed")
          && claimNames(o.object()).contains(claim)) {
        return true;
      }
    }
    return false;
  }

  /** kube's pv-protection: a volume is in use while it is bound to a claim. */
  private static boolean volumeInUse(MapValue volume) {
    return "Bound".equals(Nested.str(volume, "status", "phase"));
  }

  /** The claims a Pod's volumes name, ephemeral volumes' generated claims included. */
  private static List<String> claimNames(MapValue pod) {
    List<String> out = new ArrayList<>();
    String podName = Meta.metaString(pod, "name");
    for (Value v : Nested.list(pod, "spec", "volumes")) {
      if (!(v instanceof MapValue volume)) {
        continue;
      }
      String claim = Nested.str(volume, "persistentVolumeClaim", "claimName");
      if (!claim.isEmpty()) {
        out.add(claim);
      } else if (volume.getOrNull("ephemeral") instanceof MapValue) {
        out.add(podName + "-" + Nested.str(volume, "name"));
      }
    }
    return out;
  }

  @Override
  public void close() {
    worker.shutdownNow();
    informers.forEach(StoreInformer::close);
  }
}
