/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until told to move: every timestamp the test server writes
 * ({@code creationTimestamp}, {@code deletionTimestamp}, managed-fields times), the age
 * column of tables and the deadlines of HTTP watches come from it, so tests can assert exact
 * times and advance time for TTLs, leases and graceful deletion instead of sleeping (advancing
 * it past a watch's timeout ends that watch, as time passing would). It never goes backwards
 * unless {@link #set}.
 *
 * <p>Thread-safe.
 */
public final class TestClock extends Clock {
  /** Where a {@link ApiServerTest} server's clock starts: 2026-01-01T00:00:00Z. */
  public static final Instant DEFAULT_START = Instant.parse("2026-01-01T00:00:00Z");

  private final AtomicReference<Instant> now;

  private TestClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /** A clock at {@link #DEFAULT_START}. */
  public static TestClock create() {
    return at(DEFAULT_START);
  }

  /** A clock at {@code start}. */
  public static TestClock at(Instant start) {
    return new TestClock(requireNonNull(start, "start"));
  }

  /**
   * Moves the clock forward by {@code amount} and returns the new time.
   *
   * @throws IllegalArgumentException if {@code amount} is negative
   */
  public Instant advance(Duration amount) {
    requireNonNull(amount, "amount");
    if (amount.isNegative()) {
      throw new IllegalArgumentException("cannot advance by a negative amount: " + amount);
    }
    return now.updateAndGet(t -> t.plus(amount));
  }

  /** Sets the time, in either direction. */
  public void set(Instant time) {
    now.set(requireNonNull(time, "time"));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /**
   * This clock for UTC (the server writes UTC timestamps).
   *
   * @throws UnsupportedOperationException for another zone: a copy would not follow
   *     {@link #advance}
   */
  @Override
  public Clock withZone(ZoneId zone) {
    if (zone.normalized().equals(ZoneOffset.UTC)) {
      return this;
    }
    throw new UnsupportedOperationException("a TestClock is always UTC, not " + zone);
  }

  @Override
  public String toString() {
    return "TestClock[" + now.get() + "]";
  }
}
