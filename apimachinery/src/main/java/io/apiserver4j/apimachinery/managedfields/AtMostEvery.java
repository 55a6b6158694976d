/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * kube's {@code AtMostEvery} (atmostevery.go): runs an action at most once per period, dropping
 * the calls in between. Time comes from an injected nanosecond ticker. Thread-safe.
 */
final class AtMostEvery {
  private final long periodNanos;
  private final LongSupplier ticker;
  private final AtomicLong last;

  AtMostEvery(long periodNanos, LongSupplier ticker) {
    this.periodNanos = periodNanos;
    this.ticker = ticker;
    this.last = new AtomicLong(ticker.getAsLong() - periodNanos);
  }

  /** Runs {@code action} unless it ran less than a period ago; whether it ran. */
  boolean run(Runnable action) {
    long now = ticker.getAsLong();
    long previous = last.get();
    if (now - previous < periodNanos || !last.compareAndSet(previous, now)) {
      return false;
    }
    action.run();
    return true;
  }
}
