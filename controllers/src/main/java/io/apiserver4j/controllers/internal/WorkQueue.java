/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * client-go's rate-limited work queue: an item added while queued is queued once; an item added
 * while a worker processes it is queued again when the worker is {@link #done} with it, so no
 * two workers ever hold the same item. {@link #addRateLimited} re-adds a failed item after
 * client-go's default per-item exponential backoff (5 ms doubling up to 1000 s) until it is
 * {@link #forget forgotten}; {@link #addAfter} re-adds it when the server clock reaches a time.
 *
 * <p>Backoffs run on wall time, as client-go's queues do whatever clock a controller simulates:
 * they pace retries against a failing server, not simulated time. Thread-safe.
 *
 * @param <T> the items, compared with {@code equals}
 */
public final class WorkQueue<T> {
  private static final long BASE_DELAY_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
  private static final long MAX_DELAY_NANOS = TimeUnit.SECONDS.toNanos(1000);
  /**
   * An item retried more often than this no longer keeps the queue busy for a quiescence wait:
   * it waits for something else to change (an owner kind served later, a server recovering).
   */
  static final int BUSY_RETRIES = 6;

  private final String name;
  private final Activity activity;
  private final ScheduledExecutorService retries;
  private final Timers timers;
  private final Object lock = new Object();
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  private final Set<T> dirty = new HashSet<>();
  private final Set<T> processing = new HashSet<>();
  private final Map<T, Integer> failures = new HashMap<>();
  /** Items waiting for a backoff that still counts as pending work. Guarded by lock. */
  private final Map<T, Integer> pendingRetries = new HashMap<>();
  private boolean shutDown;
  /** While true {@link #get} hands nothing out (a reset in place is under way). Guarded by lock. */
  private boolean paused;
  /** Counts {@link #clear}s: a backoff scheduled before the last one re-adds nothing. */
  private long generation;

  WorkQueue(String name, Activity activity, ScheduledExecutorService retries, Timers timers) {
    this.name = name;
    this.activity = activity;
    this.retries = retries;
    this.timers = timers;
  }

  /** The queue's name, for logs and thread names. */
  public String name() {
    return name;
  }

  /** Queues {@code item} unless it is queued already. */
  public void add(T item) {
    synchronized (lock) {
      if (shutDown || !dirty.add(item)) {
        return;
      }
      if (!processing.contains(item)) {
        queue.add(item);
        lock.notify();
      }
    }
    activity.changed();
  }

  /** Queues {@code item} after its backoff: client-go's {@code AddRateLimited}. */
  public void addRateLimited(T item) {
    long delay;
    boolean counted;
    long gen;
    synchronized (lock) {
      if (shutDown) {
        return;
      }
      gen = generation;
      int n = failures.merge(item, 1, Integer::sum);
      delay = n > 40 ? MAX_DELAY_NANOS : Math.min(MAX_DELAY_NANOS, BASE_DELAY_NANOS << (n - 1));
      counted = n <= BUSY_RETRIES;
      if (counted) {
        pendingRetries.merge(item, 1, Integer::sum);
      }
    }
    try {
      retries.schedule(() -> {
        synchronized (lock) {
          if (gen != generation) {
            return; // dropped by a reset in place
          }
          if (counted) {
            pendingRetries.computeIfPresent(item, (k, v) -> v == 1 ? null : v - 1);
          }
        }
        add(item);
        activity.changed();
      }, delay, TimeUnit.NANOSECONDS);
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // the manager is closing
      synchronized (lock) {
        pendingRetries.remove(item);
      }
    }
  }

  /** Queues {@code item} once the server clock reaches {@code delay} from now. */
  public void addAfter(T item, Duration delay) {
    if (delay.isNegative() || delay.isZero()) {
      add(item);
      return;
    }
    timers.schedule(delay, () -> add(item));
  }

  /**
   * Queues {@code item} once the server clock reaches {@code due} (at once when it has): for a
   * time computed from the clock a sync read, which a test may have moved since.
   */
  public void addAt(T item, Instant due) {
    if (!due.isAfter(timers.now())) {
      add(item);
      return;
    }
    timers.scheduleAt(due, () -> add(item));
  }

  /** Clears the failure count of {@code item}: client-go's {@code Forget}. */
  public void forget(T item) {
    synchronized (lock) {
      failures.remove(item);
    }
  }

  /** How often {@code item} failed since it was last forgotten. */
  public int failures(T item) {
    synchronized (lock) {
      return failures.getOrDefault(item, 0);
    }
  }

  /**
   * The next item, waiting for one; empty once the queue is shut down. The caller must call
   * {@link #done} with it.
   */
  public Optional<T> get() {
    synchronized (lock) {
      while ((queue.isEmpty() || paused) && !shutDown) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return Optional.empty();
        }
      }
      if (shutDown) {
        return Optional.empty();
      }
      T item = queue.poll();
      processing.add(item);
      dirty.remove(item);
      return Optional.of(item);
    }
  }

  /** The worker is finished with {@code item}; queues it again if it was added meanwhile. */
  public void done(T item) {
    synchronized (lock) {
      processing.remove(item);
      if (paused) {
        if (dirty.contains(item)) {
          queue.add(item);
        }
        if (processing.isEmpty()) {
          // the reset waiting in pause: the last item held is let go
          lock.notifyAll();
        }
      } else if (dirty.contains(item)) {
        queue.add(item);
        lock.notify();
      }
    }
    activity.changed();
  }

  /** Whether nothing is queued, in process, or waiting for an early retry. */
  public boolean idle() {
    synchronized (lock) {
      return queue.isEmpty() && processing.isEmpty() && pendingRetries.isEmpty();
    }
  }

  /** How many items are queued or in process. */
  public int length() {
    synchronized (lock) {
      return queue.size() + processing.size();
    }
  }

  /**
   * Stops handing items out and waits until no worker holds one (each finishes the item it
   * processes): the first step of a reset in place, which keeps the workers.
   *
   * @return false if interrupted while waiting (the interrupt status is kept)
   */
  boolean pause() {
    synchronized (lock) {
      paused = true;
      while (!processing.isEmpty() && !shutDown) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Drops every queued item, failure count and pending backoff (a backoff already scheduled
   * re-adds nothing): the queue is as new. Called while {@link #pause paused}.
   */
  void clear() {
    synchronized (lock) {
      queue.clear();
      dirty.clear();
      failures.clear();
      pendingRetries.clear();
      generation++;
    }
    activity.changed();
  }

  /** Hands items out again after {@link #pause}. */
  void resume() {
    synchronized (lock) {
      paused = false;
      // one worker per queued item: waking every worker of every queue on each reset costs more
      // than the reset's own work
      for (int i = 0; i < queue.size(); i++) {
        lock.notify();
      }
    }
    activity.changed();
  }

  /** Ends {@link #get} for every worker; later adds are ignored. */
  public void shutDown() {
    synchronized (lock) {
      shutDown = true;
      lock.notifyAll();
    }
    activity.changed();
  }

  @Override
  public String toString() {
    return "WorkQueue[" + name + "]";
  }
}
