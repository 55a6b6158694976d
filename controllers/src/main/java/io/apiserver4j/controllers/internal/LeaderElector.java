/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apimachinery.decoding.GoParsing;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.StatusException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's {@code LeaderElector} on a Lease lock ({@code resourcelock.LeaseLock}): a thread
 * that tries to acquire the lease every retry period (with client-go's jitter), runs
 * {@code onStartedLeading} once it holds it, renews it every retry period, and runs
 * {@code onStoppedLeading} when a renewal has not succeeded within the renew deadline. A lease
 * is taken over only when nobody changed it for its {@code leaseDurationSeconds} as this
 * elector observed it, measured on the server clock, so a test that advances its clock sees the
 * takeover at once. Retry waits are wall time, as client-go's wait loops.
 *
 * <p>kube-controller-manager exits when it loses the lease and its supervisor restarts it; here
 * the process goes on, so after {@code onStoppedLeading} the elector campaigns again. Like
 * kube-controller-manager (no {@code ReleaseOnCancel}), {@link #close()} does not release the
 * lease: another candidate takes over once it expires.
 *
 * <p>Lease writes are made as {@code system:kube-controller-manager} with field manager
 * {@code kube-controller-manager}. Thread-safe.
 */
public final class LeaderElector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);
  private static final GroupVersionResource LEASES =
      new GroupVersionResource("coordination.k8s.io", "v1", "leases");
  /** client-go's {@code JitterFactor}. */
  static final double JITTER = 1.2;
  /** kube-controller-manager's own user, which its leader election client uses. */
  static final UserInfo USER = UserInfo.of("system:kube-controller-manager",
      "system:authenticated");

  private final ApiServer api;
  private final Clock clock;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Duration leaseDuration;
  private final Duration renewDeadline;
  private final Duration retryPeriod;
  private final Runnable onStartedLeading;
  private final Runnable onStoppedLeading;
  private final Object lock = new Object();
  private final Thread thread;
  private boolean closed;
  private boolean leading;
  /** The lease spec as last read or written, and when, on the server clock, it changed. */
  private MapValue observedSpec = MapValue.empty();
  private Instant observedTime = Instant.EPOCH;
  /** The clock's time when an acquisition or renewal last succeeded. Guarded by lock. */
  private Instant succeededAt = Instant.EPOCH;

  /**
   * An elector for the lease {@code namespace/name}; {@link #start()} starts campaigning.
   *
   * @param onStartedLeading run on the elector's thread once the lease is held
   * @param onStoppedLeading run on the elector's thread when leadership is lost or the elector
   *     is closed while leading
   */
  public LeaderElector(ApiServer api, Clock clock, String namespace, String name,
      String identity, Duration leaseDuration, Duration renewDeadline, Duration retryPeriod,
      Runnable onStartedLeading, Runnable onStoppedLeading) {
    this.api = requireNonNull(api, "api");
    this.clock = requireNonNull(clock, "clock");
    this.namespace = requireNonNull(namespace, "namespace");
    this.name = requireNonNull(name, "name");
    this.identity = requireNonNull(identity, "identity");
    this.leaseDuration = requireNonNull(leaseDuration, "leaseDuration");
    this.renewDeadline = requireNonNull(renewDeadline, "renewDeadline");
    this.retryPeriod = requireNonNull(retryPeriod, "retryPeriod");
    this.onStartedLeading = requireNonNull(onStartedLeading, "onStartedLeading");
    this.onStoppedLeading = requireNonNull(onStoppedLeading, "onStoppedLeading");
    this.thread = new Thread(this::run, "apiserver4j-leader-election-" + name);
    this.thread.setDaemon(true);
  }

  /** Starts campaigning on the elector's own thread. */
  public void start() {
    thread.start();
  }

  /** Whether this elector holds the lease and its controllers run. */
  public boolean isLeader() {
    synchronized (lock) {
      return leading;
    }
  }

  /**
   * Waits until this elector leads, or {@code timeout} passes.
   *
   * @return whether it leads; false too if interrupted (the interrupt status is kept)
   */
  public boolean awaitLeading(Duration timeout) {
    return awaitLeading(true, timeout);
  }

  /**
   * Waits until this elector leads ({@code wanted} true) or has stopped leading, its controllers
   * stopped ({@code wanted} false).
   *
   * @return whether it does within {@code timeout}; false too if interrupted
   */
  public boolean awaitLeading(boolean wanted, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (lock) {
      while (leading != wanted && !closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return leading == wanted;
    }
  }

  /** Stops campaigning; when leading, runs {@code onStoppedLeading} first. Idempotent. */
  @Override
  public void close() {
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      lock.notifyAll();
    }
    if (thread.isAlive() && Thread.currentThread() != thread) {
      try {
        thread.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void run() {
    while (!isClosed()) {
      // acquire: client-go's JitterUntil with the retry period, sliding
      while (!tryAcquireOrRenew()) {
        if (!pause(jittered())) {
          return;
        }
      }
      if (isClosed()) {
        return;
      }
      LOG.info("{} successfully acquired lease {}/{}", identity, namespace, name);
      try {
        onStartedLeading.run();
        // leading once the controllers run, so that a caller that waited for it finds them
        setLeading(true);
        renewUntilLost();
      } catch (RuntimeException e) {
        // the controllers could not start (the store could not be listed): stop what did start
        // and campaign again after a retry period, as a restarted kube-controller-manager would
        LOG.error("starting the controllers of {} failed", identity, e);
        pause(retryPeriod);
      } finally {
        try {
          onStoppedLeading.run();
        } catch (RuntimeException e) {
          LOG.error("stopping the controllers of {} failed", identity, e);
        }
        // not leading once the controllers are stopped, as leading once they run
        setLeading(false);
      }
    }
  }

  /** client-go's {@code renew}: returns once a renewal failed for the renew deadline. */
  private void renewUntilLost() {
    while (pause(retryPeriod)) {
      if (tryAcquireOrRenew()) {
        continue;
      }
      // from the clock's time at the last success, not at this loop's start: the clock may
      // have moved on between the acquisition and here
      if (Duration.between(lastSuccess(), clock.instant()).compareTo(renewDeadline) >= 0) {
        LOG.info("{} failed to renew lease {}/{}: timed out waiting for the condition; leader"
            + " election lost", identity, namespace, name);
        return;
      }
    }
  }

  private Duration jittered() {
    long base = retryPeriod.toNanos();
    long extra = (long) (ThreadLocalRandom.current().nextDouble() * JITTER * base);
    return Duration.ofNanos(base + extra);
  }

  /** Waits {@code d} of wall time; false once closed. */
  private boolean pause(Duration d) {
    long deadline = System.nanoTime() + d.toNanos();
    synchronized (lock) {
      while (!closed) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return true;
        }
        try {
          lock.wait(Math.max(1, left / 1_000_000));
        } catch (InterruptedException e) {
          closed = true;
          Thread.currentThread().interrupt();
        }
      }
      return false;
    }
  }

  private Instant lastSuccess() {
    synchronized (lock) {
      return succeededAt;
    }
  }

  private boolean isClosed() {
    synchronized (lock) {
      return closed;
    }
  }

  private void setLeading(boolean value) {
    synchronized (lock) {
      leading = value;
      lock.notifyAll();
    }
  }

  /**
   * client-go's {@code tryAcquireOrRenew}: creates the lease when there is none, else takes or
   * renews it unless another holder's lease is still valid; every write is conditional on the
   * version read.
   */
  boolean tryAcquireOrRenew() {
    Instant now = clock.instant();
    String time = microTime(now);
    ResourceClient leases = api.resources(LEASES).user(USER)
        .fieldManager(ControllerContext.FIELD_MANAGER).namespace(namespace);
    Optional<MapValue> current;
    try {
      current = Optional.of(leases.get(name));
    } catch (NotFoundException e) {
      current = Optional.empty();
    } catch (StatusException e) {
      LOG.warn("error retrieving resource lock {}/{}: {}", namespace, name, e.getMessage());
      return false;
    } catch (IllegalStateException e) {
      // the server closed under the elector
      return false;
    }
    if (current.isEmpty()) {
      MapValue spec = spec(time, time, 0);
      try {
        MapValue created = leases.create(MapValue.ofEntries("apiVersion",
            Value.of("coordination.k8s.io/v1"), "kind", Value.of("Lease"),
            "metadata", MapValue.ofEntries("name", Value.of(name),
                "namespace", Value.of(namespace)),
            "spec", spec));
        observe(Nested.map(created, "spec"), now);
        return true;
      } catch (StatusException e) {
        LOG.warn("error initially creating leader election record {}/{}: {}", namespace, name,
            e.getMessage());
        return false;
      } catch (IllegalStateException e) {
        return false;
      }
    }
    MapValue lease = current.get();
    MapValue old = Nested.map(lease, "spec");
    MapValue observed;
    Instant observedAt;
    synchronized (lock) {
      if (!old.equals(observedSpec)) {
        observedSpec = old;
        observedTime = now;
      }
      observed = observedSpec;
      observedAt = observedTime;
    }
    String holder = Nested.str(observed, "holderIdentity");
    boolean holding = holder.equals(identity);
    long seconds = Nested.integer(observed, "leaseDurationSeconds");
    if (!holder.isEmpty() && observedAt.plusSeconds(seconds).isAfter(now) && !holding) {
      return false;
    }
    String acquired = time;
    long transitions = Nested.integer(old, "leaseTransitions");
    if (holding) {
      String was = Nested.str(old, "acquireTime");
      acquired = was.isEmpty() ? time : was;
    } else {
      transitions++;
    }
    MapValue updated = lease.with("spec", old.with("holderIdentity", Value.of(identity))
        .with("leaseDurationSeconds", Value.of(leaseDuration.toSeconds()))
        .with("acquireTime", Value.of(acquired))
        .with("renewTime", Value.of(time))
        .with("leaseTransitions", Value.of(transitions)));
    try {
      MapValue written = leases.update(updated);
      observe(Nested.map(written, "spec"), now);
      return true;
    } catch (StatusException e) {
      LOG.debug("failed to update lock {}/{}: {}", namespace, name, e.getMessage());
      return false;
    } catch (IllegalStateException e) {
      return false;
    }
  }

  private MapValue spec(String acquireTime, String renewTime, long transitions) {
    return MapValue.ofEntries("holderIdentity", Value.of(identity),
        "leaseDurationSeconds", Value.of(leaseDuration.toSeconds()),
        "acquireTime", Value.of(acquireTime), "renewTime", Value.of(renewTime),
        "leaseTransitions", Value.of(transitions));
  }

  /** Our write of {@code spec} at {@code now} succeeded. */
  private void observe(MapValue spec, Instant now) {
    synchronized (lock) {
      observedSpec = spec;
      observedTime = now;
      succeededAt = now;
    }
  }

  /** metav1.MicroTime's form: RFC 3339 in UTC with six fraction digits. */
  static String microTime(Instant t) {
    return GoParsing.formatTime(t.atOffset(ZoneOffset.UTC), true);
  }

  @Override
  public String toString() {
    return "LeaderElector[" + namespace + "/" + name + ", " + identity + "]";
  }
}
