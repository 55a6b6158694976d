/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.controllers.internal.EventRecorder.InvolvedObject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The correlator against client-go's defaults and semantics (tools/record/events_cache.go and
 * events_cache_test.go): repeats counted on the first event, 10 similar events within 10
 * minutes combined, a burst of 25 per source and object refilled at one per 300 s.
 */
class EventCorrelatorTest {
  private static final InvolvedObject POD =
      new InvolvedObject("v1", "Pod", "ns", "web", "uid-1", "");

  private final AtomicReference<Instant> now =
      new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
  private final Clock clock = new Clock() {
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
  private final EventCorrelator correlator = new EventCorrelator(clock);
  private int names;

  private Optional<EventCorrelator.Result> record(String reason, String message) {
    String name = "web." + Integer.toHexString(++names);
    EventCorrelator.Event e = new EventCorrelator.Event("kubelet", POD, "Normal", reason,
        message, name, now.get(), now.get(), 1);
    Optional<EventCorrelator.Result> result = correlator.correlate(e, name);
    // the sink wrote it: kube's UpdateState with the server's answer
    result.ifPresent(r -> correlator.updateState(r.event()));
    return result;
  }

  @Test
  void theSameEventAgainIsCountedOnTheFirstOne() {
    EventCorrelator.Result first = record("Started", "Started container").orElseThrow();
    assertThat(first.existing()).isEmpty();
    assertThat(first.event().count()).isEqualTo(1);
    Instant firstTime = now.get();
    now.set(now.get().plusSeconds(30));
    EventCorrelator.Result second = record("Started", "Started container").orElseThrow();
    // kube's eventObserve: the first one's name and firstTimestamp, count + 1, a patch
    assertThat(second.existing()).contains(first.event().name());
    assertThat(second.event().name()).isEqualTo(first.event().name());
    assertThat(second.event().count()).isEqualTo(2);
    assertThat(second.event().firstTimestamp()).isEqualTo(firstTime);
    assertThat(second.event().lastTimestamp()).isEqualTo(now.get());
    assertThat(record("Started", "Started container").orElseThrow().event().count())
        .isEqualTo(3);
  }

  @Test
  void theTenthSimilarEventWithinTenMinutesIsCombined() {
    for (int i = 0; i < 9; i++) {
      EventCorrelator.Result r = record("Unhealthy", "probe failed " + i).orElseThrow();
      assertThat(r.event().message()).isEqualTo("probe failed " + i);
      assertThat(r.existing()).isEmpty();
    }
    // defaultAggregateMaxEvents: the tenth distinct message makes an aggregate event
    EventCorrelator.Result tenth = record("Unhealthy", "probe failed 9").orElseThrow();
    assertThat(tenth.event().message())
        .isEqualTo("(combined from similar events): probe failed 9");
    assertThat(tenth.event().count()).isEqualTo(1);
    assertThat(tenth.existing()).isEmpty();
    // further similar ones count on the aggregate, with the newest message
    EventCorrelator.Result eleventh = record("Unhealthy", "probe failed 10").orElseThrow();
    assertThat(eleventh.existing()).contains(tenth.event().name());
    assertThat(eleventh.event().count()).isEqualTo(2);
    assertThat(eleventh.event().message())
        .isEqualTo("(combined from similar events): probe failed 10");
  }

  @Test
  void similarEventsMoreThanTenMinutesApartStartAFreshGroup() {
    for (int i = 0; i < 9; i++) {
      record("Unhealthy", "probe failed " + i);
    }
    now.set(now.get().plus(Duration.ofSeconds(601)));
    EventCorrelator.Result r = record("Unhealthy", "probe failed 9").orElseThrow();
    assertThat(r.event().message()).isEqualTo("probe failed 9");
  }

  @Test
  void aSourceMayBurst25EventsAboutAnObjectThenOneEvery300Seconds() {
    for (int i = 0; i < 25; i++) {
      assertThat(record("Reason" + i, "m")).as("event %d", i).isPresent();
    }
    assertThat(record("Reason25", "m")).isEmpty();
    now.set(now.get().plusSeconds(299));
    assertThat(record("Reason26", "m")).isEmpty();
    now.set(now.get().plusSeconds(2));
    assertThat(record("Reason27", "m")).isPresent();
    assertThat(record("Reason28", "m")).isEmpty();
  }
}
