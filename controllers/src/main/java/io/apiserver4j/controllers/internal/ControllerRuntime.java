/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.controllers.metrics.PodMetrics;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
  /** The server's own controllers of the same names, stopped while these run. */
  private final List<String> handOverNames;
  private final List<io.apiserver4j.apiserver.BuiltinController.Handover> handovers =
      new ArrayList<>();

  /**
   * Builds the controllers {@code descriptors} name (each must be implemented), with the worker
   * counts of kube's {@code --concurrent-<name>-syncs} flags by name and otherwise the
   * {@linkplain ControllerSettings#defaults() default settings}.
   */
  public ControllerRuntime(ApiServer api, Clock clock, List<ControllerDescriptor> descriptors,
      Map<String, Integer> concurrentSyncs) {
    this(api, clock, descriptors,
        ControllerSettings.defaults().withConcurrentSyncs(concurrentSyncs));
  }

  /**
   * Builds the controllers {@code descriptors} name (each must be implemented) with
   * {@code settings}.
   *
   * @throws IllegalArgumentException if a controller cannot start, e.g. csrsigning's CA files
   *     cannot be read, in kube's words
   */
  public ControllerRuntime(ApiServer api, Clock clock, List<ControllerDescriptor> descriptors,
      ControllerSettings settings) {
    this.api = api;
    this.timers = new Timers(clock, activity, "apiserver4j-controller-timers");
    this.retries = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "apiserver4j-controller-retries");
      t.setDaemon(true);
      return t;
    });
    this.informers = new SharedInformers(api, activity);
    this.context = new ControllerContext(api, informers, clock, timers, activity, retries,
        settings);
    List<String> n = new ArrayList<>();
    List<String> builtins = new ArrayList<>();
    for (ControllerDescriptor d : descriptors) {
      for (String name : d.namesAndAliases()) {
        if (api.builtinControllers().contains(name)) {
          builtins.add(name);
        }
      }
    }
    this.handOverNames = List.copyOf(builtins);
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

  /** The server's controllers to stop without running them, see {@link #stopServerInstances}. */
  private final List<String> stopped = new ArrayList<>();

  /**
   * Has {@link #start} also stop the server's own instances of the controllers {@code names}
   * (those it runs; kube-controller-manager names and aliases) without running them, until
   * {@link #close}: what {@code --controllers=-name} switches off. Call before {@link #start}.
   */
  public void stopServerInstances(List<String> names) {
    synchronized (handovers) {
      stopped.addAll(names);
    }
  }

  /**
   * Takes over the server's own controllers of the same names (see {@link
   * ApiServer#handOver}), lists every informer's resource, then starts the timers and the
   * controllers' workers.
   */
  public void start() {
    synchronized (handovers) {
      for (String name : stopped) {
        if (api.builtinControllers().contains(name) && !handOverNames.contains(name)) {
          // held, never run: the controller was switched off by name
          handovers.add(api.handOver(name));
        }
      }
      for (String name : handOverNames) {
        io.apiserver4j.apiserver.BuiltinController.Handover h = api.handOver(name);
        handovers.add(h);
        context.handedOver(name, h);
      }
    }
    informers.start();
    context.startEvents();
    timers.start();
    for (Controller c : controllers) {
      c.start();
    }
  }

  /**
   * Waits until the controllers are idle: every informer has seen every change in the store,
   * no work is queued, in process or due for an early retry, every recorded Event is written,
   * no timer is due by the server clock, and nothing was written meanwhile.
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

  /**
   * Resets the controllers in place around {@code restore}, which writes the store directly:
   * the workers finish the item each holds and wait; every queued item (but the kept ones, see
   * {@link ControllerContext.OnReset}), timer, backoff and what the controllers registered
   * with {@link ControllerContext#onReset} is dropped; {@code restore} runs; every informer is
   * brought to the store's revision (from its watch, else by a relist that replaces its cache),
   * so the handlers see the restored objects' changes, then every cached object as an update to
   * itself, as client-go's informer hands on a reflector's relist (re-arming per-object timers
   * from the controllers' syncs); each
   * controller re-arms what its start arms ({@link Controller#resetInPlace}); and the workers go
   * on. No thread is started or stopped.
   *
   * @throws IllegalStateException if the informers do not follow within {@code timeout} or the
   *     thread is interrupted; the workers go on all the same
   */
  public void reset(Runnable restore, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      if (!context.pauseQueues() || !context.events().discardPending()) {
        throw new IllegalStateException("interrupted while pausing the controllers' workers");
      }
      timers.clear();
      context.forget();
      restore.run();
      long revision = api.store().currentRevision();
      if (!informers.caughtUp(revision, left(deadline))) {
        throw new IllegalStateException("the informers did not follow the reset to revision "
            + revision + " within " + timeout);
      }
      informers.replay();
      for (Controller c : controllers) {
        c.resetInPlace();
      }
    } finally {
      context.resumeQueues();
    }
  }

  private static Duration left(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /**
   * Stops the controllers, then the informers and timers, then gives the server its own
   * controllers of the same names back. Idempotent.
   */
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
    context.shutDownEvents();
    informers.close();
    timers.close();
    retries.shutdownNow();
    try {
      retries.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (handovers) {
      for (int i = handovers.size() - 1; i >= 0; i--) {
        handovers.get(i).close();
      }
      handovers.clear();
    }
  }
}
