/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The server clock of a scenario test: it stands still until the test sets it. Thread-safe. */
final class SettableClock extends Clock {
  private final AtomicReference<Instant> now;

  SettableClock(String start) {
    this.now = new AtomicReference<>(Instant.parse(start));
  }

  /** Moves the clock to {@code instant}. */
  void set(Instant instant) {
    now.set(instant);
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now.get();
  }
}
