/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A monitor every queue and informer signals when its state changes, so that a quiescence wait
 * re-checks its condition when something happened rather than on a timer. Thread-safe.
 */
public final class Activity {
  private final Object lock = new Object();
  private long changes;

  /** Something changed: wakes the waiters. */
  public void changed() {
    synchronized (lock) {
      changes++;
      lock.notifyAll();
    }
  }

  /** How many changes were signalled so far: equal counts before and after a check mean none. */
  public long changes() {
    synchronized (lock) {
      return changes;
    }
  }

  /**
   * Waits until {@code condition} holds, re-checking it after each change.
   *
   * @return whether it held within {@code timeout}; false too when interrupted (the interrupt
   *     status is kept)
   */
  public boolean await(BooleanSupplier condition, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long seen;
      synchronized (lock) {
        seen = changes;
      }
      if (condition.getAsBoolean()) {
        return true;
      }
      synchronized (lock) {
        while (changes == seen) {
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0) {
            return false;
          }
          try {
            lock.wait(left);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
          }
        }
      }
    }
  }
}
