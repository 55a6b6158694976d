/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicReference;

/** A clock that only moves when a test advances it. Thread-safe. */
public final class ManualClock implements InstantSource {
  private final AtomicReference<Instant> now;

  public ManualClock() {
    this(Instant.parse("2024-01-01T00:00:00Z"));
  }

  public ManualClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }
}
