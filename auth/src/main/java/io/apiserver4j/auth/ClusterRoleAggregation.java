/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.auth.internal.AggregatedRules;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code clusterrole-aggregation} controller: it follows the
 * ClusterRoles of a server (a list, then a watch, listing again when the watch cannot resume)
 * and, whenever one changes, writes into every ClusterRole with an {@code aggregationRule} the
 * rules of the ClusterRoles its selectors select — selector by selector, the selected roles
 * sorted by name, each rule once — unless it already has exactly those. As kube's controller, it
 * writes by server-side apply of the {@code rules} alone, forced, as field manager
 * {@value #FIELD_MANAGER}; its requests are made by kube-apiserver's privileged loopback user.
 *
 * <p>It runs on one daemon thread from {@link #start} until {@link #close}; the stored rules of
 * an aggregated role follow a change of a selected role shortly after, not within the request
 * that changed it (wait for them with a watch). A failed write is logged and retried on the next
 * change. Thread-safe.
 */
public final class ClusterRoleAggregation implements AutoCloseable {
  /** The field manager of the aggregated rules, as in kube. */
  public static final String FIELD_MANAGER = "clusterrole-aggregation-controller";
  private static final Logger LOG = LoggerFactory.getLogger(ClusterRoleAggregation.class);
  private static final String USER_AGENT = "kube-controller-manager/v1.36.0"
      + " (linux/amd64) kubernetes/clusterrole-aggregation-controller";
  /** An idle watch is polled again after this long; close() ends it at once anyway. */
  private static final Duration POLL = Duration.ofSeconds(30);
  private static final long MIN_BACKOFF_MILLIS = 20;
  private static final long MAX_BACKOFF_MILLIS = 5_000;
  private static final Duration STOP_WAIT = Duration.ofSeconds(10);

  private final ApiServer server;
  private final Thread thread;
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile boolean stopped;
  private volatile ApiWatch current;
  /** The ClusterRoles by name, as last listed or watched; only the controller thread uses it. */
  private final Map<String, MapValue> clusterRoles = new HashMap<>();
  /** The revision the cache is current at; only the controller thread uses it. */
  private String resourceVersion = "";

  private ClusterRoleAggregation(ApiServer server) {
    this.server = server;
    this.thread = new Thread(this::run, "apiserver4j-clusterrole-aggregation");
    this.thread.setDaemon(true);
  }

  /**
   * Starts aggregating the ClusterRoles of {@code server} in the background; close the result
   * to stop. The server's ClusterRoles are read on the controller's thread, so this returns at
   * once.
   */
  public static ClusterRoleAggregation start(ApiServer server) {
    ClusterRoleAggregation c = new ClusterRoleAggregation(requireNonNull(server, "server"));
    c.thread.start();
    return c;
  }

  /** Stops the controller and waits for its thread to end. Idempotent. */
  @Override
  public void close() {
    stopped = true;
    stop.countDown();
    ApiWatch w = current;
    if (w != null) {
      w.close();
    }
    if (thread == Thread.currentThread()) {
      return;
    }
    try {
      thread.join(STOP_WAIT.toMillis());
      if (thread.isAlive()) {
        // stuck in a server call that does not end on its own: interrupting is the last resort
        thread.interrupt();
        thread.join(STOP_WAIT.toMillis());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void run() {
    long backoff = MIN_BACKOFF_MILLIS;
    boolean listed = false;
    while (!stopped) {
      try {
        if (!listed) {
          list();
          listed = true;
          sync();
        }
        Outcome outcome = follow();
        if (outcome == Outcome.EXPIRED) {
          listed = false;
          backoff = MIN_BACKOFF_MILLIS;
          continue;
        }
        if (outcome == Outcome.PROGRESSED) {
          backoff = MIN_BACKOFF_MILLIS;
          continue;
        }
      } catch (IllegalStateException e) {
        // the server was closed under us
        if (!stopped) {
          LOG.debug("cluster role aggregation stops: {}", e.getMessage());
        }
        return;
      } catch (RuntimeException e) {
        if (!stopped) {
          LOG.warn("cluster role aggregation failed; retrying", e);
        }
        listed = false;
      }
      try {
        if (stop.await(backoff, TimeUnit.MILLISECONDS)) {
          return;
        }
      } catch (InterruptedException e) {
        return;
      }
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MILLIS);
    }
  }

  /** Lists the ClusterRoles into the cache (an informer's relist). */
  private void list() {
    MapValue list = server.handle(ApiRequest.builder(ApiRequest.Verb.LIST,
        Bootstrap.CLUSTER_ROLES).user(Bootstrap.LOOPBACK).userAgent(USER_AGENT).build())
        .orThrow();
    clusterRoles.clear();
    for (Value item : Nested.list(list, "items")) {
      if (item instanceof MapValue role) {
        clusterRoles.put(Meta.metaString(role, "name"), role);
      }
    }
    resourceVersion = Meta.metaString(list, "resourceVersion");
  }

  /** How a watch ended. */
  private enum Outcome { PROGRESSED, IDLE, EXPIRED }

  /**
   * Watches from the cache's revision, syncing after each batch of events, until the watch ends
   * or the controller stops.
   */
  private Outcome follow() {
    ApiWatch w;
    try {
      w = server.watch(ApiRequest.builder(ApiRequest.Verb.WATCH, Bootstrap.CLUSTER_ROLES)
          .resourceVersion(resourceVersion).allowWatchBookmarks(true)
          .user(Bootstrap.LOOPBACK).userAgent(USER_AGENT).build());
    } catch (StatusException e) {
      if (e.status().code() == 410) {
        return Outcome.EXPIRED;
      }
      throw e;
    }
    current = w;
    boolean progressed = false;
    try {
      while (!stopped) {
        Optional<ApiWatchEvent> next = w.poll(POLL);
        if (next.isEmpty()) {
          if (w.isClosed()) {
            return progressed ? Outcome.PROGRESSED : Outcome.IDLE;
          }
          continue;
        }
        boolean changed = false;
        // take every event already there before syncing: one sync per batch of changes
        while (next.isPresent()) {
          ApiWatchEvent e = next.get();
          if (e.type().equals("ERROR")) {
            return Nested.integer(e.object(), "code") == 410 ? Outcome.EXPIRED : Outcome.IDLE;
          }
          changed |= apply(e);
          progressed = true;
          next = w.poll(Duration.ZERO);
        }
        if (changed) {
          sync();
        }
      }
      return Outcome.IDLE;
    } catch (InterruptedException e) {
      // only close() interrupts, as a last resort
      return Outcome.IDLE;
    } finally {
      current = null;
      w.close();
    }
  }

  /** Applies one watch event to the cache; whether a ClusterRole changed. */
  private boolean apply(ApiWatchEvent e) {
    MapValue object = e.object();
    String rv = Meta.metaString(object, "resourceVersion");
    if (!rv.isEmpty()) {
      resourceVersion = rv;
    }
    String name = Meta.metaString(object, "name");
    switch (e.type()) {
      case "ADDED", "MODIFIED" -> clusterRoles.put(name, object);
      case "DELETED" -> clusterRoles.remove(name);
      default -> {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes the aggregated rules of every aggregated ClusterRole that lacks them (kube enqueues
   * every aggregated role on any ClusterRole change).
   */
  private void sync() {
    for (MapValue role : clusterRoles.values().toArray(MapValue[]::new)) {
      if (stopped) {
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
      ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.PATCH,
          Bootstrap.CLUSTER_ROLES).name(name)
          .patch(PatchType.APPLY_YAML, Json.write(configuration))
          .fieldManager(FIELD_MANAGER).force(true)
          .user(Bootstrap.LOOPBACK).userAgent(USER_AGENT).build());
      if (r.isSuccess()) {
        // the watch brings the written role too; until then, do not write it again
        clusterRoles.put(name, r.body());
      } else {
        LOG.warn("aggregating ClusterRole {} failed: {}", name, r.body());
      }
    }
  }
}
