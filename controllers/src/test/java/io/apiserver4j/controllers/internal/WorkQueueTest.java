/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** client-go's work queue contract (workqueue/queue_test.go) and the timers on a moved clock. */
class WorkQueueTest {
  private final Activity activity = new Activity();
  private final MovableClock clock = new MovableClock();
  private final Timers timers = new Timers(clock, activity, "test-timers");
  private final ScheduledExecutorService retries = Executors.newSingleThreadScheduledExecutor();
  private final WorkQueue<String> queue = new WorkQueue<>("test", activity, retries, timers);

  @AfterEach
  void close() {
    timers.close();
    retries.shutdownNow();
  }

  @Test
  void anItemQueuedTwiceIsQueuedOnce() {
    queue.add("a");
    queue.add("b");
    queue.add("a");
    assertThat(queue.length()).isEqualTo(2);
    assertThat(queue.get()).contains("a");
    assertThat(queue.get()).contains("b");
  }

  @Test
  void anItemAddedWhileProcessedIsQueuedAgainWhenDone() {
    queue.add("a");
    assertThat(queue.get()).contains("a");
    queue.add("a");
    // not handed to a second worker while the first holds it
    assertThat(queue.length()).isEqualTo(1);
    assertThat(queue.idle()).isFalse();
    queue.done("a");
    assertThat(queue.get()).contains("a");
    queue.done("a");
    assertThat(queue.idle()).isTrue();
  }

  @Test
  void aRetryKeepsTheQueueBusyUntilItRuns() {
    queue.addRateLimited("a");
    assertThat(queue.failures("a")).isEqualTo(1);
    assertThat(queue.idle()).isFalse();
    assertThat(activity.await(() -> queue.length() == 1, Duration.ofSeconds(10))).isTrue();
    assertThat(queue.get()).contains("a");
    queue.forget("a");
    queue.done("a");
    assertThat(queue.failures("a")).isZero();
    assertThat(queue.idle()).isTrue();
  }

  @Test
  void aPausedQueueHandsNothingOutAndAPauseWaitsForTheItemsHeld() throws Exception {
    queue.add("a");
    assertThat(queue.get()).contains("a");
    CompletableFuture<Boolean> paused =
        CompletableFuture.supplyAsync(queue::pause);
    queue.add("b");
    // the pause returns only once the worker let go of "a"
    queue.done("a");
    assertThat(paused.get()).isTrue();
    CompletableFuture<Optional<String>> next =
        CompletableFuture.supplyAsync(queue::get);
    queue.resume();
    assertThat(next.get()).contains("b");
    queue.done("b");
    assertThat(queue.idle()).isTrue();
  }

  @Test
  void aClearDropsQueuedItemsFailuresAndBackoffsAlreadyScheduled() throws Exception {
    queue.add("a");
    queue.addRateLimited("b");
    assertThat(queue.pause()).isTrue();
    queue.clear();
    assertThat(queue.length()).isZero();
    assertThat(queue.failures("b")).isZero();
    assertThat(queue.idle()).isTrue();
    queue.resume();
    // the backoff of "b" (5 ms) ends, after a marker scheduled behind it, without re-adding it
    CountDownLatch behind = new CountDownLatch(1);
    retries.schedule(behind::countDown, 50, TimeUnit.MILLISECONDS);
    // one retry thread: the marker runs after the dropped backoff
    assertThat(behind.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(queue.length()).isZero();
  }

  @Test
  void clearedTimersNeverRun() {
    queue.addAfter("a", Duration.ofMinutes(5));
    timers.clear();
    clock.advance(Duration.ofMinutes(5));
    assertThat(timers.anyDue()).isFalse();
    timers.fireDue();
    assertThat(queue.length()).isZero();
  }

  @Test
  void addAfterWaitsForTheClock() {
    queue.addAfter("a", Duration.ofMinutes(5));
    assertThat(queue.idle()).isTrue();
    assertThat(timers.anyDue()).isFalse();
    clock.advance(Duration.ofMinutes(4));
    timers.fireDue();
    assertThat(queue.length()).isZero();
    clock.advance(Duration.ofMinutes(1));
    assertThat(timers.anyDue()).isTrue();
    timers.fireDue();
    assertThat(queue.length()).isEqualTo(1);
  }

  @Test
  void shutDownEndsGet() {
    queue.shutDown();
    assertThat(queue.get()).isEmpty();
    queue.add("a");
    assertThat(queue.length()).isZero();
  }

  /** A clock a test moves. */
  static final class MovableClock extends Clock {
    private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
