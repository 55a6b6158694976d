/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TestClockTest {
  @Test
  void standsStillUntilAdvanced() {
    TestClock clock = TestClock.create();
    assertThat(clock.instant()).isEqualTo(TestClock.DEFAULT_START).isEqualTo(clock.instant());
    assertThat(clock.advance(Duration.ofSeconds(30))).isEqualTo("2026-01-01T00:00:30Z");
    assertThat(clock.millis()).isEqualTo(Instant.parse("2026-01-01T00:00:30Z").toEpochMilli());
    clock.set(Instant.EPOCH);
    assertThat(clock.instant()).isEqualTo(Instant.EPOCH);
  }

  @Test
  void rejectsGoingBackAndOtherZones() {
    TestClock clock = TestClock.at(Instant.EPOCH);
    assertThatThrownBy(() -> clock.advance(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot advance by a negative amount: PT-1S");
    assertThat(clock.withZone(ZoneOffset.UTC)).isSameAs(clock);
    assertThat(clock.getZone()).isEqualTo(ZoneOffset.UTC);
    assertThatThrownBy(() -> clock.withZone(ZoneId.of("Europe/Paris")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("a TestClock is always UTC, not Europe/Paris");
  }
}
