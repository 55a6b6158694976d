/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.internal.Expectations;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The expectations of kube's replica_set_test.go for slow start and controller expectations. */
class ReplicaSetUnitTest {

  /**
   * kube's TestSlowStartBatch: batches of 1, 2, 4, ...; after a batch with a failure the rest
   * is skipped.
   */
  @ParameterizedTest(name = "count {0}, failing from call {1}")
  @CsvSource({
      // count, first failing call (0: none), successes, calls
      "10, 0, 10, 10",
      "10, 1, 0, 1",
      "10, 6, 5, 7",
      "0, 0, 0, 0",
  })
  void slowStartBatch(int count, int failFrom, int successes, int calls) {
    AtomicInteger n = new AtomicInteger();
    int ok = ReplicaSetController.slowStartBatch(count, () -> {
      int call = n.incrementAndGet();
      return failFrom == 0 || call < failFrom;
    });
    assertThat(ok).isEqualTo(successes);
    assertThat(n.get()).isEqualTo(calls);
  }

  /**
   * kube's TestUIDExpectations and expectation expiry: a set waits for its creations and for
   * the deletion of exactly the Pods it deleted, each seen once, or for 5 minutes.
   */
  @Test
  void expectations() {
    AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    Clock clock = new Clock() {
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
    };
    Expectations e = new Expectations(clock);
    assertThat(e.satisfied("ns/rs")).isTrue();
    e.expectCreations("ns/rs", 2);
    assertThat(e.satisfied("ns/rs")).isFalse();
    e.creationObserved("ns/rs");
    assertThat(e.satisfied("ns/rs")).isFalse();
    e.creationObserved("ns/rs");
    assertThat(e.satisfied("ns/rs")).isTrue();

    e.expectDeletions("ns/rs", List.of("ns/a", "ns/b"));
    e.deletionObserved("ns/rs", "ns/a");
    e.deletionObserved("ns/rs", "ns/a");
    e.deletionObserved("ns/rs", "ns/other");
    assertThat(e.satisfied("ns/rs")).as("b not seen yet").isFalse();
    e.deletionObserved("ns/rs", "ns/b");
    assertThat(e.satisfied("ns/rs")).isTrue();

    e.expectCreations("ns/rs", 1);
    now.set(now.get().plusSeconds(5 * 60));
    assertThat(e.satisfied("ns/rs")).as("not expired at 5 minutes").isFalse();
    now.set(now.get().plusSeconds(1));
    assertThat(e.satisfied("ns/rs")).as("expired").isTrue();

    e.expectCreations("ns/rs", 1);
    e.delete("ns/rs");
    assertThat(e.satisfied("ns/rs")).isTrue();
  }
}
