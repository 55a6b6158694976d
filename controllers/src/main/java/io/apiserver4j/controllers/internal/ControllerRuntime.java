/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apiserver.ApiServer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running controllers of a manager with what they share: informers, timers, the retry
 * scheduler and the activity monitor. Thread-safe.
 */
public final class ControllerRuntime implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerRuntime.class);

  private final ApiServer api;
  private final Activity activity = new Activity();
  private final Timers timers;
  private final ScheduledExecutorService retries;
  private final SharedInformers informers;
  private final ControllerContext context;
  private final List<Controller> controllers = new ArrayList<>();
  private final List<String> names;

  /**
   * Builds the controllers {@code descriptors} name (each must be implemented), with the worker
   * counts of kube's {@code --concurrent-<name>-syncs} flags by name.
   */
  public ControllerRuntime(ApiServer api, Clock clock, List<ControllerDescriptor> descriptors,
      Map<String, Integer> concurrentSyncs) {
    this(api, clock, descriptors, concurrentSyncs, Map.of(), true);
  }

  /**
   * Builds the controllers {@code descriptors} name (each must be implemented), with the worker
   * counts of kube's {@code --concurrent-<name>-syncs} flags by name, the other integer flags
   * of kube-controller-manager that were set, by flag name without dashes (see
   * {@link ControllerContext#flag}), and the volume controllers' simulated storage (external
   * provisioner and resizer) on or off.
   */
  public ControllerRuntime(ApiServer api, Clock clock, List<ControllerDescriptor> descriptors,
      Map<String, Integer> concurrentSyncs, Map<String, Integer> flags,
      boolean simulatedStorage) {
    this.api = api;
    this.timers = new Timers(clock, activity, "apiserver4j-controller-timers");
    this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "apiserver4j-controller-retries");
      t.setDaemon(true);
      return t;
    });
    this.informers = new SharedInformers(api, activity);
    this.context = new ControllerContext(api, informers, clock, timers, activity, retries,
        concurrentSyncs, flags, simulatedStorage);
    List<String> n = new ArrayList<>();
    try {
      for (ControllerDescriptor d : descriptors) {
        controllers.add(d.factory().orElseThrow(() -> new IllegalArgumentException(
            d.name() + " is not implemented")).apply(context));
        n.add(d.name());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
    this.names = List.copyOf(n);
  }

  /** The canonical names of the controllers, in kube's order. */
  public List<String> names() {
    return names;
  }

  /** Lists every informer's resource, then starts the timers and the controllers' workers. */
  public void start() {
    informers.start();
    timers.start();
    for (Controller c : controllers) {
      c.start();
    }
  }

  /**
   * Waits until the controllers are idle: every informer has seen every change in the store,
   * no work is queued, in process or due for an early retry, no timer is due by the server
   * clock, and nothing was written meanwhile.
   */
  public boolean awaitIdle(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      timers.fireDue();
      // idle only after a whole pass in which nothing at all happened
      long changes = activity.changes();
      long revision = api.store().currentRevision();
      if (!informers.caughtUp(revision, left(deadline))) {
        return false;
      }
      boolean idle = activity.await(() -> {
        timers.fireDue();
        return context.idle();
      }, left(deadline));
      if (!idle) {
        return false;
      }
      if (api.store().currentRevision() == revision && context.idle()
          && activity.changes() == changes) {
        return true;
      }
    }
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /** Stops the controllers, then the informers and timers. Idempotent. */
  @Override
  public void close() {
    // a controller's close would shut its own queues down first anyway; doing it for all of
    // them before the first close lets their workers end in parallel
    context.shutDownQueues();
    for (Controller c : controllers) {
      try {
        c.close();
      } catch (RuntimeException e) {
        LOG.error("closing a controller failed", e);
      }
    }
    controllers.clear();
    informers.close();
    timers.close();
    retries.shutdownNow();
    try {
      retries.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
