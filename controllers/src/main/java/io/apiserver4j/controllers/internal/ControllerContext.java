/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.controllers.metrics.PodMetrics;
import io.apiserver4j.core.GroupVersionResource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a controller is built from: the server, the shared informers, the server clock and its
 * timers, and its work queues and workers, which the manager tracks for its quiescence wait.
 */
public final class ControllerContext {
  private static final Logger LOG = LoggerFactory.getLogger(ControllerContext.class);
  /** kube-controller-manager's field manager: its user agent's program name. */
  public static final String FIELD_MANAGER = "kube-controller-manager";

  /** The name of a pooled worker thread between two workers. */
  private static final String IDLE_WORKER = "apiserver4j-idle-worker";
  /**
   * The threads workers run on, kept for a minute after their worker ended: a test kit's reset
   * stops every controller and starts new ones, about a hundred workers each time, and starting
   * and ending that many threads cost more than the rest of the restart. A thread carries
   * nothing of a worker into the next (name and interrupt status are reset), so managers of
   * different servers share it as they share the JVM's other threads.
   */
  private static final ExecutorService WORKER_THREADS = new ThreadPoolExecutor(0,
      Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
        Thread t = new Thread(r, IDLE_WORKER);
        t.setDaemon(true);
        return t;
      });

  private final ApiServer api;
  private final SharedInformers informers;
  private final Clock clock;
  private final Timers timers;
  private final Activity activity;
  private final ScheduledExecutorService retries;
  private final List<WorkQueue<?>> queues = new CopyOnWriteArrayList<>();
  /** What a reset in place forgets besides the queues and timers (see {@link #onReset}). */
  private final List<Runnable> forgets = new CopyOnWriteArrayList<>();
  private final List<WorkQueue<?>> dropped = new CopyOnWriteArrayList<>();
  private final ControllerSettings settings;
  private final EventBroadcaster events;

  ControllerContext(ApiServer api, SharedInformers informers, Clock clock, Timers timers,
      Activity activity, ScheduledExecutorService retries, ControllerSettings settings) {
    this.settings = settings;
    this.api = api;
    this.informers = informers;
    this.clock = clock;
    this.timers = timers;
    this.activity = activity;
    this.retries = retries;
    this.events = new EventBroadcaster(activity);
  }

  public ApiServer api() {
    return api;
  }

  public SharedInformers informers() {
    return informers;
  }

  /** The server clock: every time a controller reads or writes comes from it. */
  public Clock clock() {
    return clock;
  }

  public Timers timers() {
    return timers;
  }

  /**
   * The manager's one event broadcaster, which writes what every recorder records on its own
   * worker; the quiescence wait waits for it.
   */
  public EventBroadcaster events() {
    return events;
  }

  /** Starts the event broadcaster's worker. */
  void startEvents() {
    events.start(WORKER_THREADS);
  }

  /** Writes the Events still queued, then stops the event broadcaster's worker. */
  void shutDownEvents() {
    events.shutDown();
  }

  /**
   * The workers kube-controller-manager's {@code --concurrent-<name>-syncs} flag gives a
   * controller (its default unless the manager was told otherwise).
   *
   * @throws IllegalArgumentException if there is no such flag
   */
  public int concurrentSyncs(String name) {
    Integer n = settings.concurrentSyncs().get(name);
    if (n == null) {
      throw new IllegalArgumentException("no --concurrent-" + name + "-syncs flag is known");
    }
    return n;
  }

  /**
   * Whether the volume controllers run the simulated external provisioner and resizer beside
   * them (on unless the manager was built without them).
   */
  public boolean simulatedStorage() {
    return settings.simulatedStorage();
  }

  /** The resource metrics the horizontal pod autoscaler reads (in place of metrics-server). */
  public PodMetrics podMetrics() {
    return settings.podMetrics();
  }

  /**
   * The custom and external metrics the horizontal pod autoscaler reads; empty when the
   * manager has no custom or external metrics API.
   */
  public Optional<io.apiserver4j.controllers.metrics.CustomMetrics> customMetrics() {
    return settings.customMetrics();
  }

  /**
   * The value of kube-controller-manager's integer flag {@code --<name>} (e.g.
   * {@code terminated-pod-gc-threshold}) the manager was given, else {@code kubeDefault}.
   */
  public int flag(String name, int kubeDefault) {
    return settings.flags().getOrDefault(name, kubeDefault);
  }

  /**
   * What kube-controller-manager's {@code --service-account-private-key-file} and
   * {@code --root-ca-file} gave the serviceaccount-token controller; empty without a key.
   */
  public Optional<ServiceAccountTokenSigning> serviceAccountTokenSigning() {
    return settings.tokenSigning();
  }

  /** kube-controller-manager's {@code --cluster-signing-*} flags the manager was given. */
  public SigningFiles clusterSigning() {
    return settings.clusterSigning();
  }

  /** The server's own controllers this manager took over, by name. */
  private final Map<String, io.apiserver4j.apiserver.BuiltinController.Handover> handovers =
      new java.util.concurrent.ConcurrentHashMap<>();

  void handedOver(String name, io.apiserver4j.apiserver.BuiltinController.Handover handover) {
    handovers.put(name, handover);
  }

  /**
   * The handover of the server's own controller {@code name} (see {@link
   * ApiServer#handOver}), taken before the controllers start; empty if the server runs none
   * of that name.
   */
  public Optional<io.apiserver4j.apiserver.BuiltinController.Handover> handover(String name) {
    return Optional.ofNullable(handovers.get(name));
  }

  /** The server's controllers run by this manager whose work the quiescence wait counts. */
  private final List<io.apiserver4j.apiserver.BuiltinController.Observable> observed =
      new CopyOnWriteArrayList<>();

  /**
   * Counts the work of {@code instance}, a server's controller this manager runs (see {@link
   * ServerImplementedController}), in the quiescence wait until {@link #unobserve}.
   */
  public void observe(io.apiserver4j.apiserver.BuiltinController.Observable instance) {
    instance.observe(activity::changed);
    observed.add(instance);
    activity.changed();
  }

  /** Stops counting {@code instance}'s work. */
  public void unobserve(io.apiserver4j.apiserver.BuiltinController.Observable instance) {
    observed.remove(instance);
    instance.observe(() -> { });
    activity.changed();
  }

  /** A new work queue the quiescence wait watches, emptied by a reset in place. */
  public <T> WorkQueue<T> newQueue(String name) {
    return newQueue(name, OnReset.DROP);
  }

  /**
   * A new work queue the quiescence wait watches; {@code onReset} says whether a reset in place
   * empties it ({@link OnReset#KEEP} for a queue of informer events that a controller's own
   * state is built from, such as the garbage collector's graph changes).
   */
  public <T> WorkQueue<T> newQueue(String name, OnReset onReset) {
    WorkQueue<T> q = new WorkQueue<>(name, activity, retries, timers);
    queues.add(q);
    if (onReset == OnReset.DROP) {
      dropped.add(q);
    }
    return q;
  }

  /** What a reset in place does with a queue's items. */
  public enum OnReset {
    /** Drops them: they name objects to sync, and the informers' events queue what is needed. */
    DROP,
    /** Keeps them: they are events a controller's state must still take in. */
    KEEP
  }

  /**
   * Registers {@code forget}, run by a reset in place while the workers are paused, to drop a
   * helper's state that the informers' events do not keep current (expectations, an event
   * correlator's counts): a reset must leave the controllers as if just started.
   */
  public void onReset(Runnable forget) {
    forgets.add(java.util.Objects.requireNonNull(forget, "forget"));
  }

  /**
   * Kube's expectations of a controller, on the server clock, forgotten by a reset in place.
   */
  public Expectations newExpectations() {
    Expectations e = new Expectations(clock);
    onReset(e::clear);
    return e;
  }

  /**
   * Registers {@code maps} to be emptied by a reset in place, each while holding its own monitor
   * (the lock a controller guarding a plain map with {@code synchronized (map)} holds).
   */
  public void forgetOnReset(Map<?, ?>... maps) {
    for (Map<?, ?> m : maps) {
      onReset(() -> {
        synchronized (m) {
          m.clear();
        }
      });
    }
  }

  /**
   * Pauses every queue made by {@link #newQueue}, waiting until no worker holds an item.
   *
   * @return false if interrupted meanwhile
   */
  boolean pauseQueues() {
    for (WorkQueue<?> q : queues) {
      if (!q.pause()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Empties every queue but those kept ({@link OnReset#KEEP}) and runs what {@link #onReset}
   * registered. Workers paused.
   */
  void forget() {
    for (WorkQueue<?> q : dropped) {
      q.clear();
    }
    for (Runnable r : forgets) {
      r.run();
    }
  }

  /** Lets the workers of every queue take items again. */
  void resumeQueues() {
    for (WorkQueue<?> q : queues) {
      q.resume();
    }
  }

  /**
   * Shuts every queue made by {@link #newQueue} down, so that all workers of all controllers
   * end at once: closing the controllers one after another then only waits for threads that
   * are already ending instead of waking each controller's workers in turn.
   */
  void shutDownQueues() {
    for (WorkQueue<?> q : queues) {
      q.shutDown();
    }
  }

  /**
   * Whether every queue is idle, every recorded Event written and no timer is due, with nothing
   * queued meanwhile (a worker may queue into a queue already looked at, and then finish before
   * its own is looked at).
   */
  boolean idle() {
    long before = activity.changes();
    if (timers.anyDue() || !events.idle()) {
      return false;
    }
    for (WorkQueue<?> q : queues) {
      if (!q.idle()) {
        return false;
      }
    }
    if (!observed.isEmpty()) {
      long revision = api.store().currentRevision();
      for (io.apiserver4j.apiserver.BuiltinController.Observable o : observed) {
        if (!o.idleAt(revision)) {
          return false;
        }
      }
    }
    return activity.changes() == before;
  }

  /**
   * The user kube-controller-manager makes a controller's requests as, with
   * {@code --use-service-account-credentials}: the service account {@code account} of
   * {@code kube-system}.
   */
  public static UserInfo serviceAccount(String account) {
    return UserInfo.of("system:serviceaccount:kube-system:" + account,
        "system:serviceaccounts", "system:serviceaccounts:kube-system", "system:authenticated");
  }

  /** A client of {@code resource} making requests as {@code user}, field manager kube's. */
  public ResourceClient client(GroupVersionResource resource, UserInfo user) {
    return api.resources(resource).user(user).fieldManager(FIELD_MANAGER);
  }

  /**
   * Starts {@code count} workers taking items from {@code queue} and handing each to
   * {@code process}, which says what to do with the item afterwards. A worker that throws is
   * logged with its stack and the item retried, as client-go's {@code HandleError} and
   * {@code AddRateLimited} do.
   */
  public <T> Workers startWorkers(String name, WorkQueue<T> queue, int count,
      Function<T, Outcome> process) {
    List<Future<?>> threads = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      String threadName = "apiserver4j-" + name + "-" + n;
      threads.add(WORKER_THREADS.submit(() -> runWorker(threadName, queue, process)));
    }
    return new Workers(queue, threads);
  }

  /** Runs one worker on a pooled thread under the worker's own thread name. */
  private <T> void runWorker(String threadName, WorkQueue<T> queue,
      Function<T, Outcome> process) {
    Thread self = Thread.currentThread();
    self.setName(threadName);
    try {
      work(queue, process);
    } catch (RuntimeException | Error e) {
      // a thread of its own would have reported it through the uncaught-exception handler
      LOG.error("worker {} ended with an error", threadName, e);
      throw e;
    } finally {
      // the next worker on this thread must not start interrupted
      Thread.interrupted();
      self.setName(IDLE_WORKER);
    }
  }

  private <T> void work(WorkQueue<T> queue, Function<T, Outcome> process) {
    while (true) {
      Optional<T> next = queue.get();
      if (next.isEmpty()) {
        return;
      }
      T item = next.get();
      try {
        Outcome o;
        try {
          o = process.apply(item);
        } catch (SyncError e) {
          LOG.warn("{} failed on {}: {}", queue.name(), item, e.getMessage());
          o = Outcome.REQUEUE;
        } catch (IllegalStateException e) {
          if (e.getMessage() != null && e.getMessage().contains("closed")) {
            return; // the server closed under the controller
          }
          LOG.error("{} failed on {}", queue.name(), item, e);
          o = Outcome.REQUEUE;
        } catch (RuntimeException e) {
          LOG.error("{} failed on {}", queue.name(), item, e);
          o = Outcome.REQUEUE;
        }
        if (o == Outcome.FORGET) {
          queue.forget(item);
        } else {
          queue.addRateLimited(item);
        }
      } finally {
        queue.done(item);
      }
    }
  }

  /** What a worker does with an item it processed. */
  public enum Outcome {
    /** Done: its failure count is cleared. */
    FORGET,
    /** Try again after the backoff. */
    REQUEUE
  }

  /** Running workers of one queue. */
  public static final class Workers implements AutoCloseable {
    private final WorkQueue<?> queue;
    private final List<Future<?>> threads;

    Workers(WorkQueue<?> queue, List<Future<?>> threads) {
      this.queue = queue;
      this.threads = threads;
    }

    /**
     * Closes {@code workers}, or, when they never started (null: the controller was closed
     * before its start), shuts {@code queue} down.
     */
    public static void close(Workers workers, WorkQueue<?> queue) {
      if (workers != null) {
        workers.close();
      } else {
        queue.shutDown();
      }
    }

    /** Shuts the queue down and waits for the workers. */
    @Override
    public void close() {
      queue.shutDown();
      for (Future<?> t : threads) {
        try {
          t.get(10_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        } catch (ExecutionException | TimeoutException e) {
          // logged by the worker itself, or still busy after the wait a join gave it too
        }
      }
    }
  }
}
