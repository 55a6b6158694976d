/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.ttlafterfinished;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube's {@code TestTimeLeft} (pkg/controller/ttlafterfinished): a Job that should not be
 * cleaned up has no time left (kube's "should not be cleaned up" error), else the TTL counts
 * from the Complete or Failed condition's transition.
 */
class TimeLeftTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static MapValue job(Instant completed, Instant failed, Long ttl) {
    StringBuilder conditions = new StringBuilder();
    if (completed != null) {
      conditions.append("{\"type\":\"Complete\",\"status\":\"True\",\"lastTransitionTime\":\"")
          .append(Meta.formatTime(completed)).append("\"}");
    }
    if (failed != null) {
      if (conditions.length() > 0) {
        conditions.append(',');
      }
      conditions.append("{\"type\":\"Failed\",\"status\":\"True\",\"lastTransitionTime\":\"")
          .append(Meta.formatTime(failed)).append("\"}");
    }
    String t = ttl == null ? "" : "\"ttlSecondsAfterFinished\":" + ttl;
    return (MapValue) Json.read("{\"metadata\":{\"name\":\"foobar\",\"namespace\":\"default\"},"
        + "\"spec\":{" + t + "},\"status\":{\"conditions\":[" + conditions + "]}}");
  }

  static Stream<Arguments> cases() {
    Instant ago = NOW.minusSeconds(10);
    return Stream.of(
        Arguments.of("Error case: Job unfinished", job(null, null, 100L), null),
        Arguments.of("Error case: Job completed now, no TTL", job(NOW, null, null), null),
        Arguments.of("Job completed now, 0s TTL", job(NOW, null, 0L), Duration.ZERO),
        Arguments.of("Job completed now, 10s TTL", job(NOW, null, 10L), Duration.ofSeconds(10)),
        Arguments.of("Job completed 10s ago, 15s TTL", job(ago, null, 15L),
            Duration.ofSeconds(5)),
        Arguments.of("Error case: Job failed now, no TTL", job(null, NOW, null), null),
        Arguments.of("Job failed now, 0s TTL", job(null, NOW, 0L), Duration.ZERO),
        Arguments.of("Job failed now, 10s TTL", job(null, NOW, 10L), Duration.ofSeconds(10)),
        Arguments.of("Job failed 10s ago, 15s TTL", job(null, ago, 15L), Duration.ofSeconds(5)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void timeLeft(String name, MapValue job, Duration expected) {
    assertThat(TtlAfterFinishedController.timeLeft(job, NOW))
        .isEqualTo(Optional.ofNullable(expected));
  }
}
