/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * client-go's event broadcaster (tools/record's {@code eventBroadcasterImpl} on a
 * {@code watch.Broadcaster}): a recorder hands an Event over and returns at once, and one worker
 * writes the queued Events in order, correlating each as it goes, so a controller's sync never
 * waits for an Event write. As kube, at most {@value #MAX_QUEUED_EVENTS} Events wait; a further
 * one is dropped with an error in the log ({@code ActionOrDrop}). One broadcaster serves every
 * recorder of a manager (kube has one per controller; a single writer keeps each recorder's
 * correlator on one thread and costs one thread instead of thirty).
 *
 * <p>{@link #idle()} is part of the manager's quiescence: an Event recorded before
 * {@code awaitIdle} returns is written when it returns. Thread-safe.
 */
public final class EventBroadcaster {
  private static final Logger LOG = LoggerFactory.getLogger(EventBroadcaster.class);
  /** client-go's {@code maxQueuedEvents}. */
  static final int MAX_QUEUED_EVENTS = 1000;

  private final Activity activity;
  private final Object lock = new Object();
  private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
  /** Whether the worker is writing an Event taken from the queue. Guarded by lock. */
  private boolean writing;
  /** Guarded by lock. */
  private boolean shutDown;
  private Future<?> worker;

  EventBroadcaster(Activity activity) {
    this.activity = activity;
  }

  /**
   * Queues {@code write}, the correlation and sink write of one Event, for the worker.
   *
   * @return false when it was dropped: the queue is full, or the broadcaster shut down
   */
  public boolean submit(Runnable write) {
    requireNonNull(write, "write");
    synchronized (lock) {
      if (shutDown) {
        return false;
      }
      if (queue.size() >= MAX_QUEUED_EVENTS) {
        LOG.error("unable to record an event: too many queued events ({}), dropped",
            MAX_QUEUED_EVENTS);
        return false;
      }
      queue.add(write);
      lock.notify();
    }
    activity.changed();
    return true;
  }

  /** Whether every Event submitted so far is written (or dropped by its sink). */
  boolean idle() {
    synchronized (lock) {
      return queue.isEmpty() && !writing;
    }
  }

  /**
   * Drops the Events not written yet and waits for the one being written, so that none lands
   * in a store a reset in place restores.
   *
   * @return false if interrupted while waiting
   */
  boolean discardPending() {
    synchronized (lock) {
      queue.clear();
      while (writing) {
        try {
          lock.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /** Starts the worker on a thread of {@code threads}. */
  void start(ExecutorService threads) {
    synchronized (lock) {
      if (worker != null || shutDown) {
        return;
      }
      worker = threads.submit(this::work);
    }
  }

  private void work() {
    Thread self = Thread.currentThread();
    String before = self.getName();
    self.setName("apiserver4j-event-broadcaster");
    try {
      while (true) {
        Runnable next;
        synchronized (lock) {
          while (queue.isEmpty() && !shutDown) {
            try {
              lock.wait();
            } catch (InterruptedException e) {
              return;
            }
          }
          next = queue.poll();
          if (next == null) {
            return; // shut down with nothing left to write
          }
          writing = true;
        }
        try {
          next.run();
        } catch (IllegalStateException e) {
          if (e.getMessage() == null || !e.getMessage().contains("closed")) {
            LOG.error("writing an event failed", e);
          }
        } catch (RuntimeException e) {
          LOG.error("writing an event failed", e);
        } finally {
          synchronized (lock) {
            writing = false;
            lock.notifyAll();
          }
          activity.changed();
        }
      }
    } finally {
      Thread.interrupted();
      self.setName(before);
    }
  }

  /**
   * Stops taking Events and waits (up to 10 s) for the worker to write those already queued, as
   * kube's broadcaster delivers what it received before its shutdown. Idempotent.
   */
  void shutDown() {
    Future<?> w;
    synchronized (lock) {
      shutDown = true;
      lock.notifyAll();
      w = worker;
      if (w == null) {
        queue.clear();
      }
    }
    if (w != null) {
      try {
        w.get(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        // logged by the worker, or still writing after the wait
      }
    }
  }
}
