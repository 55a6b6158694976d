/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers' timers, on the server clock: an action scheduled for a time runs once the
 * clock shows that time. A clock that jumps (a test's {@code TestClock}) is followed by
 * {@link #fireDue} (which the quiescence wait calls) and by a thread that looks at the clock at
 * least every {@value #MAX_LOOK_MILLIS} ms of wall time while timers are pending. Thread-safe.
 */
public final class Timers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Timers.class);
  static final long MAX_LOOK_MILLIS = 50;

  private record Timer(Instant due, long seq, Runnable action) {}

  private final Clock clock;
  private final Activity activity;
  private final Object lock = new Object();
  private final PriorityQueue<Timer> timers = new PriorityQueue<>((a, b) -> {
    int c = a.due().compareTo(b.due());
    return c != 0 ? c : Long.compare(a.seq(), b.seq());
  });
  private long seq;
  /** Actions taken off the queue and not yet run: they count as due for the idle check. */
  private int firing;
  private boolean closed;
  private final Thread thread;

  Timers(Clock clock, Activity activity, String threadName) {
    this.clock = clock;
    this.activity = activity;
    this.thread = new Thread(this::run, threadName);
    this.thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** The server clock's time. */
  public Instant now() {
    return clock.instant();
  }

  /** Runs {@code action} once the clock has advanced by {@code delay}. */
  public void schedule(Duration delay, Runnable action) {
    synchronized (lock) {
      scheduleAt(clock.instant().plus(delay), action);
    }
  }

  /**
   * Runs {@code action} once the server clock reaches {@code due}: a controller that computed
   * a time from the clock it read at the start of a sync schedules that time, not a delay from
   * a clock a test may have moved since.
   */
  public void scheduleAt(Instant due, Runnable action) {
    synchronized (lock) {
      if (closed) {
        return;
      }
      timers.add(new Timer(due, seq++, action));
      lock.notifyAll();
    }
  }

  /** Whether a timer is due by the clock and has not run yet. */
  public boolean anyDue() {
    synchronized (lock) {
      if (firing > 0) {
        return true;
      }
      Timer t = timers.peek();
      return t != null && !t.due().isAfter(clock.instant());
    }
  }

  /** Runs every timer the clock has reached, on the calling thread. */
  public void fireDue() {
    List<Runnable> due = new ArrayList<>();
    synchronized (lock) {
      Instant now = clock.instant();
      while (!timers.isEmpty() && !timers.peek().due().isAfter(now)) {
        due.add(timers.poll().action());
      }
      if (due.isEmpty()) {
        return;
      }
      firing++;
    }
    try {
      for (Runnable r : due) {
        try {
          r.run();
        } catch (RuntimeException e) {
          LOG.error("a controller timer failed", e);
        }
      }
      activity.changed();
    } finally {
      synchronized (lock) {
        firing--;
        lock.notifyAll();
      }
    }
  }

  private void run() {
    while (true) {
      synchronized (lock) {
        while (!closed && timers.isEmpty()) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        if (closed) {
          return;
        }
        long wait = Duration.between(clock.instant(), timers.peek().due()).toMillis();
        if (wait > 0) {
          try {
            lock.wait(Math.min(wait, MAX_LOOK_MILLIS));
          } catch (InterruptedException e) {
            return;
          }
          continue;
        }
      }
      fireDue();
    }
  }

  /**
   * Drops every pending timer, waiting for actions already taken off the queue to finish, so
   * that none from before runs after: a reset in place, which keeps the timer thread.
   */
  void clear() {
    synchronized (lock) {
      timers.clear();
      while (firing > 0 && !closed) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
      timers.clear();
      lock.notifyAll();
    }
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
