/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.BuiltinController;
import io.apiserver4j.apiserver.informer.StoreInformer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.Store;
import io.apiserver4j.storage.StoredObject;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A kube-controller-manager controller that keeps one object in every active namespace (the
 * {@code default} ServiceAccount, the {@code kube-root-ca.crt} ConfigMap): informers on the
 * namespaces and on the object's resource queue a namespace when it appears or the object
 * changes or goes; one worker thread then creates the object through the API, as the
 * controller's user, or updates it when it differs from what it should be. The namespaces
 * existing at start are handled before {@link #start} returns. A controller manager that runs
 * it in the server's place follows its work through {@link BuiltinController.Observable}.
 * Thread-safe.
 */
public abstract class NamespaceDefaults implements BuiltinController.Observable {
  private static final Logger LOG = LoggerFactory.getLogger(NamespaceDefaults.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Retries of a namespace up to this many failures count as pending work for {@link #idleAt}. */
  private static final int EARLY_RETRIES = 5;
  /** How long {@link #idleAt} may wait for an informer to list what the store has. */
  private static final java.time.Duration CATCH_UP = java.time.Duration.ofSeconds(10);

  private final ApiServer server;
  private final Store store;
  private final GroupVersionResource resource;
  private final String objectName;
  private final UserInfo user;
  private final String userAgent;
  private final java.util.concurrent.ScheduledExecutorService worker;
  /** Failed syncs by namespace, for the retry backoff. */
  private final Map<String, Integer> failures = new ConcurrentHashMap<>();
  private final Set<String> queued = ConcurrentHashMap.newKeySet();
  /** Syncs queued or running, and early retries waiting: non-zero means not idle. */
  private final AtomicInteger pending = new AtomicInteger();
  private volatile Runnable listener = () -> { };
  /**
   * The namespaces as the informer last delivered them: a watch event may arrive before a read
   * of the store shows its object, so the controller judges a namespace by what it was told.
   */
  private final Map<String, MapValue> namespaceStates = new ConcurrentHashMap<>();
  private StoreInformer namespaces;
  private StoreInformer objects;

  /**
   * @param resource the object's resource
   * @param objectName the object's name in every namespace
   * @param controller the controller's name: its service account in {@code kube-system} and the
   *     end of its user agent, as kube-controller-manager with
   *     {@code --use-service-account-credentials}
   */
  protected NamespaceDefaults(ApiServer server, Store store, GroupVersionResource resource,
      String objectName, String controller) {
    this.server = server;
    this.store = store;
    this.resource = resource;
    this.objectName = objectName;
    this.user = UserInfo.of("system:serviceaccount:kube-system:" + controller,
        "system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated");
    // the managed-fields manager is the user agent up to its first slash
    this.userAgent = "kube-controller-manager/v1.36.0 (linux/amd64) kubernetes/" + controller;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, controller + "-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** The object this controller keeps in {@code namespace}. */
  protected abstract MapValue desired(String namespace);

  /** Whether {@code existing} needs an update to become {@code desired}; default: never. */
  protected boolean outdated(MapValue existing, MapValue desired) {
    return false;
  }

  /** The object to write over {@code existing} to make it {@code desired}. */
  protected MapValue updated(MapValue existing, MapValue desired) {
    return existing;
  }

  /**
   * Handles every namespace there is now, then follows namespaces and objects in the
   * background until {@link #close()}.
   *
   * @return this
   */
  public final NamespaceDefaults start() {
    for (StoredObject ns : store.list(CollectionKey.all("", "namespaces"), ListOptions.all())
        .items()) {
      String name = io.apiserver4j.core.Meta.metaString(ns.object(), "name");
      namespaceStates.put(name, ns.object());
      sync(name);
    }
    namespaces = new StoreInformer(store, CollectionKey.all("", "namespaces"), "namespaces",
        "namespace-defaults-", THREADS, target(true));
    objects = new StoreInformer(store, CollectionKey.all(resource.group(), resource.resource()),
        resource.resource(), "namespace-defaults-", THREADS, target(false));
    namespaces.start();
    objects.start();
    return this;
  }

  private StoreInformer.Target target(boolean isNamespace) {
    // the resourceVersion last seen by key: a relist hands on unchanged objects too, which need
    // no sync
    Map<String, String> versions = new ConcurrentHashMap<>();
    return new StoreInformer.Target() {
      @Override
      public void apply(String key, MapValue object) {
        if (object == null) {
          versions.remove(key);
        } else {
          String version = io.apiserver4j.core.Meta.metaString(object, "resourceVersion");
          String before = versions.put(key, version);
          if (version.equals(before)) {
            return;
          }
        }
        int slash = key.indexOf('/');
        String namespace = isNamespace ? key.substring(slash + 1) : key.substring(0, slash);
        if (isNamespace) {
          if (object == null) {
            namespaceStates.remove(namespace);
          } else {
            namespaceStates.put(namespace, object);
          }
        }
        if (isNamespace ? object != null : key.substring(slash + 1).equals(objectName)) {
          enqueue(namespace);
        }
      }

      @Override
      public Set<String> keys() {
        return Set.copyOf(versions.keySet());
      }

      @Override
      public void applied(long floor) {
        listener.run();
      }
    };
  }

  private void enqueue(String namespace) {
    if (queued.add(namespace)) {
      pending.incrementAndGet();
      try {
        worker.execute(() -> {
          try {
            queued.remove(namespace);
            sync(namespace);
          } finally {
            done();
          }
        });
      } catch (java.util.concurrent.RejectedExecutionException e) {
        queued.remove(namespace);
        done();
      }
    }
  }

  private void done() {
    pending.decrementAndGet();
    listener.run();
  }

  @Override
  public void observe(Runnable listener) {
    this.listener = java.util.Objects.requireNonNull(listener, "listener");
  }

  @Override
  public boolean idleAt(long revision) {
    StoreInformer n = namespaces;
    StoreInformer o = objects;
    if (n == null || o == null || pending.get() > 0) {
      return false;
    }
    // the informers list at once what their watch has not delivered yet
    return n.await(revision, CATCH_UP) && o.await(revision, CATCH_UP) && pending.get() == 0
        && queued.isEmpty();
  }

  /** Brings {@code namespace} to the desired state; failures are logged (a later event retries). */
  private void sync(String namespace) {
    try {
      MapValue ns = namespaceStates.get(namespace);
      if (ns == null || "Terminating".equals(Nested.str(ns, "status", "phase"))
          || Nested.has(ns, "metadata", "deletionTimestamp")) {
        return;
      }
      MapValue desired = desired(namespace);
      Optional<StoredObject> existing = store.get(ObjectKey.namespaced(resource.group(),
          resource.resource(), namespace, objectName));
      ApiResponse r;
      if (existing.isEmpty()) {
        r = server.handle(request(ApiRequest.Verb.CREATE, namespace).body(desired).build());
      } else if (outdated(existing.get().object(), desired)) {
        r = server.handle(request(ApiRequest.Verb.UPDATE, namespace).name(objectName)
            .body(updated(existing.get().object(), desired)).build());
      } else {
        return;
      }
      int code = r.code();
      if (code < 400 || code == 409) {
        // written, or written by someone else meanwhile (its watch event brings it here again)
        failures.remove(namespace);
        return;
      }
      // a watch event can come before the namespace is readable (404), or the write fails for
      // now: retry with a backoff, as kube's work queue rate limiter does
      int n = failures.merge(namespace, 1, Integer::sum);
      if (code != 404 && code != 403) {
        LOG.warn("cannot write {} {}/{}: {}", resource.resource(), namespace, objectName,
            Nested.str(r.body(), "message"));
      }
      retry(namespace, n);
    } catch (RuntimeException e) {
      if (!worker.isShutdown()) {
        LOG.warn("syncing {} {}/{} failed", resource.resource(), namespace, objectName, e);
        retry(namespace, failures.merge(namespace, 1, Integer::sum));
      }
    }
  }

  /** Syncs {@code namespace} again after 5 ms doubled per failure, at most a second. */
  private void retry(String namespace, int failuresSoFar) {
    long delay = Math.min(1000L, 5L << Math.min(failuresSoFar - 1, 10));
    boolean early = failuresSoFar <= EARLY_RETRIES;
    if (early) {
      pending.incrementAndGet();
    }
    try {
      worker.schedule(() -> {
        try {
          enqueue(namespace);
        } finally {
          if (early) {
            done();
          }
        }
      }, delay, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // stopped
      if (early) {
        done();
      }
    }
  }

  private ApiRequest.Builder request(ApiRequest.Verb verb, String namespace) {
    // the manager kube derives from this user agent, named here too for in-process servers
    return ApiRequest.builder(verb, resource).namespace(namespace).user(user)
        .userAgent(userAgent).fieldManager("kube-controller-manager");
  }

  /** The object's metadata: its name and namespace. */
  protected final MapValue metadata(String namespace, Map<String, String> annotations) {
    MapValue.Builder b = MapValue.builder();
    b.put("name", Value.of(objectName));
    b.put("namespace", Value.of(namespace));
    if (!annotations.isEmpty()) {
      MapValue.Builder a = MapValue.builder();
      annotations.forEach((k, v) -> a.put(k, Value.of(v)));
      b.put("annotations", a.build());
    }
    return b.build();
  }

  @Override
  public void close() {
    worker.shutdownNow();
    if (namespaces != null) {
      namespaces.close();
    }
    if (objects != null) {
      objects.close();
    }
    try {
      worker.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
