/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.BuiltinController;
import io.apiserver4j.apiserver.informer.StoreInformer;
import io.apiserver4j.auth.internal.AggregatedRules;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.CollectionKey;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code clusterrole-aggregation} controller: it follows the
 * ClusterRoles of a server (an informer over its storage: a list, then a watch, listing again
 * when the watch cannot resume) and, whenever one changes, writes into every ClusterRole with an
 * {@code aggregationRule} the rules of the ClusterRoles its selectors select — selector by
 * selector, the selected roles sorted by name, each rule once — unless it already has exactly
 * those. As kube's controller, it writes by server-side apply of the {@code rules} alone,
 * forced, as field manager {@value #FIELD_MANAGER}, as its service account
 * {@code system:serviceaccount:kube-system:clusterrole-aggregation-controller} (which kube's
 * bootstrap policy lets escalate ClusterRoles, see {@link Bootstrap}).
 *
 * <p>It runs on one daemon worker from {@link #start} until {@link #close}; the stored rules of
 * an aggregated role follow a change of a selected role shortly after, not within the request
 * that changed it (wait for them with a watch, or with a controller manager's quiescence wait
 * when one runs it: it is {@link BuiltinController.Observable}). A failed write is logged and
 * retried with a backoff, and on the next change. Thread-safe.
 */
public final class ClusterRoleAggregation implements BuiltinController.Observable {
  /** The field manager of the aggregated rules, as in kube. */
  public static final String FIELD_MANAGER = "clusterrole-aggregation-controller";
  /** The controller's name in kube-controller-manager's {@code --controllers}. */
  public static final String NAME = "clusterrole-aggregation";
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRoleAggregation.class);
  private static final AtomicInteger THREADS = new AtomicInteger();
  private static final String USER_AGENT = "kube-controller-manager/v1.36.0"
      + " (linux/amd64) kubernetes/clusterrole-aggregation-controller";
  /** kube-controller-manager's user for this controller (--use-service-account-credentials). */
  static final UserInfo USER = UserInfo.of(
      "system:serviceaccount:kube-system:clusterrole-aggregation-controller",
      "system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated");
  private static final long MIN_BACKOFF_MILLIS = 5;
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  /** Retries up to this many failures in a row count as pending work for {@link #idleAt}. */
  private static final int EARLY_RETRIES = 5;
  private static final Duration CATCH_UP = Duration.ofSeconds(10);
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final ApiServer server;
  private final ScheduledExecutorService worker;
  private final StoreInformer informer;
  /** The ClusterRoles by name, as the informer (or the controller's own write) last showed. */
  private final Map<String, MapValue> clusterRoles = new ConcurrentHashMap<>();
  private final AtomicBoolean queued = new AtomicBoolean();
  /** A sync queued or running, or an early retry waiting: non-zero means not idle. */
  private final AtomicInteger pending = new AtomicInteger();
  /** Failed syncs in a row, for the backoff; only the worker uses it. */
  private int failures;
  private volatile Runnable listener = () -> { };

  private ClusterRoleAggregation(ApiServer server) {
    this.server = server;
    this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "apiserver4j-clusterrole-aggregation-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.informer = new StoreInformer(server.store(), CollectionKey.all(
        Bootstrap.CLUSTER_ROLES.group(), Bootstrap.CLUSTER_ROLES.resource()), "clusterroles",
        "apiserver4j-clusterrole-aggregation-watch-", THREADS, new StoreInformer.Target() {
          @Override
          public void apply(String key, MapValue object) {
            String name = key.substring(key.indexOf('/') + 1);
            MapValue before = object == null ? clusterRoles.remove(name)
                : clusterRoles.put(name, object);
            if (object != null && before != null && Meta.metaString(before, "resourceVersion")
                .equals(Meta.metaString(object, "resourceVersion"))) {
              // a relist hands on unchanged roles too
              return;
            }
            if (object != null || before != null) {
              enqueue();
            }
          }

          @Override
          public Set<String> keys() {
            return Set.copyOf(clusterRoles.keySet().stream().map(n -> "/" + n).toList());
          }

          @Override
          public void applied(long floor) {
            listener.run();
          }
        });
  }

  /**
   * Starts aggregating the ClusterRoles of {@code server} in the background; close the result
   * to stop. The ClusterRoles are listed before this returns, and aggregated on the controller's
   * worker.
   */
  public static ClusterRoleAggregation start(ApiServer server) {
    ClusterRoleAggregation c = new ClusterRoleAggregation(requireNonNull(server, "server"));
    try {
      c.informer.start();
    } catch (RuntimeException e) {
      c.close();
      throw e;
    }
    c.enqueue();
    return c;
  }

  @Override
  public void observe(Runnable listener) {
    this.listener = requireNonNull(listener, "listener");
  }

  @Override
  public boolean idleAt(long revision) {
    if (pending.get() > 0) {
      return false;
    }
    // the informer lists at once what its watch has not delivered yet
    return informer.await(revision, CATCH_UP) && pending.get() == 0;
  }

  /** Stops the controller and waits for its threads to end. Idempotent. */
  @Override
  public void close() {
    worker.shutdownNow();
    informer.close();
    try {
      worker.awaitTermination(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Queues one sync of every aggregated role (kube enqueues them all on any change). */
  private void enqueue() {
    if (!queued.compareAndSet(false, true)) {
      return;
    }
    pending.incrementAndGet();
    try {
      worker.execute(() -> {
        try {
          queued.set(false);
          sync();
        } finally {
          done();
        }
      });
    } catch (RejectedExecutionException e) {
      // stopped
      queued.set(false);
      done();
    }
  }

  private void done() {
    pending.decrementAndGet();
    listener.run();
  }

  /**
   * Writes the aggregated rules of every aggregated ClusterRole that lacks them; retries later
   * if a write failed.
   */
  private void sync() {
    boolean failed = false;
    for (MapValue role : clusterRoles.values().toArray(MapValue[]::new)) {
      if (worker.isShutdown()) {
        return;
      }
      if (!AggregatedRules.isAggregated(role)) {
        continue;
      }
      ListValue rules = AggregatedRules.of(role, clusterRoles.values());
      if (AggregatedRules.has(role, rules)) {
        continue;
      }
      String name = Meta.metaString(role, "name");
      MapValue configuration = MapValue.ofEntries(
          "apiVersion", Value.of("rbac.authorization.k8s.io/v1"),
          "kind", Value.of("ClusterRole"),
          "metadata", MapValue.ofEntries("name", Value.of(name)),
          "rules", rules);
      try {
        ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.PATCH,
            Bootstrap.CLUSTER_ROLES).name(name)
            .patch(PatchType.APPLY_YAML, Json.write(configuration))
            .fieldManager(FIELD_MANAGER).force(true)
            .user(USER).userAgent(USER_AGENT).build());
        if (r.isSuccess()) {
          // the informer brings the written role too; until then, do not write it again
          clusterRoles.computeIfPresent(name, (n, old) -> newer(old, r.body()));
        } else if (r.code() != 404) {
          // a role deleted meanwhile needs nothing; anything else is tried again
          LOG.warn("aggregating ClusterRole {} failed: {}", name, r.body());
          failed = true;
        }
      } catch (IllegalStateException e) {
        // the server was closed under us
        return;
      } catch (RuntimeException e) {
        if (!worker.isShutdown()) {
          LOG.warn("aggregating ClusterRole {} failed", name, e);
          failed = true;
        }
      }
    }
    if (failed) {
      retry(++failures);
    } else {
      failures = 0;
    }
  }

  /** The newer of two states of a role, by resourceVersion (the informer may be ahead). */
  private static MapValue newer(MapValue a, MapValue b) {
    try {
      return Long.parseLong(Meta.metaString(a, "resourceVersion"))
          >= Long.parseLong(Meta.metaString(b, "resourceVersion")) ? a : b;
    } catch (NumberFormatException e) {
      return b;
    }
  }

  /** Syncs again after a backoff doubled per failure in a row. */
  private void retry(int failuresSoFar) {
    long delay = Math.min(MAX_BACKOFF_MILLIS,
        MIN_BACKOFF_MILLIS << Math.min(failuresSoFar - 1, 20));
    boolean early = failuresSoFar <= EARLY_RETRIES;
    if (early) {
      pending.incrementAndGet();
    }
    try {
      worker.schedule(() -> {
        try {
          enqueue();
        } finally {
          if (early) {
            done();
          }
        }
      }, delay, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      if (early) {
        done();
      }
    }
  }
}
