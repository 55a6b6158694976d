/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoDurationsTest {

  @ParameterizedTest
  @CsvSource({
      "32s, 32000",
      "0, 0",
      "1m30s, 90000",
      "1.5h, 5400000",
      "500ms, 500",
      "-2s, -2000",
      "1h2m3s4ms, 3723004",
      ".5s, 500",
  })
  void parsesGoDurations(String text, long millis) {
    assertThat(GoDurations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "abc | time: invalid duration \"abc\"",
      "5 | time: missing unit in duration \"5\"",
      "5x | time: unknown unit \"x\" in duration \"5x\"",
      "'' | time: invalid duration \"\"",
      "- | time: invalid duration \"-\"",
  })
  void rejectsWithGoMessages(String text, String message) {
    assertThatThrownBy(() -> GoDurations.parse(text))
        .isInstanceOf(GoDurations.InvalidDurationException.class)
        .hasMessage(message);
  }

  @ParameterizedTest
  @CsvSource({
      "-5, <invalid>",
      "-1, 0s",
      "0, 0s",
      "59, 59s",
      "119, 119s",
      "120, 2m",
      "200, 3m20s",
      "600, 10m",
      "10799, 179m",
      "10800, 3h",
      "11000, 3h3m",
      "28800, 8h",
      "172800, 2d",
      "176400, 2d1h",
      "691200, 8d",
      "63072000, 2y",
      "63158400, 2y1d",
      "315360000, 10y",
  })
  void humanDurationsLikeApimachinery(long seconds, String text) {
    assertThat(GoDurations.human(Duration.ofSeconds(seconds))).isEqualTo(text);
  }
}
