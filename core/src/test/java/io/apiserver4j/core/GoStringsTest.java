/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import io.apiserver4j.core.errors.FieldError;

class GoStringsTest {

  @Test
  void quotesLikeStrconvQuoteNotLikeJson() {
    assertThat(GoStrings.quote("<a&b>")).isEqualTo("\"<a&b>\"");
    assertThat(GoStrings.quote("tab\tnl\nbell\u0007del\u007f")).isEqualTo("\"tab\\tnl\\nbell\\adel\\x7f\"");
    assertThat(GoStrings.quote("\u00a0é😀")).isEqualTo("\"\\u00a0é😀\"");
    assertThat(GoStrings.quote("q\"b\\")).isEqualTo("\"q\\\"b\\\\\"");
  }

  @Test
  void formatsFloatsLikePercentV() {
    assertThat(GoStrings.formatFloatV(1.0)).isEqualTo("1");
    assertThat(GoStrings.formatFloatV(1e6)).isEqualTo("1e+06");
    assertThat(GoStrings.formatFloatV(0.0001)).isEqualTo("0.0001");
    assertThat(GoStrings.formatFloatV(0.00001)).isEqualTo("1e-05");
    assertThat(GoStrings.formatFloatV(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
  }

  @Test
  void fieldErrorsShowValuesAsKubeDoes() {
    assertThat(FieldError.invalid("metadata.name", Value.of("a<b>"), "").toString())
        .isEqualTo("metadata.name: Invalid value: \"a<b>\"");
    assertThat(FieldError.invalid("spec.x", Value.of(2.5), "").body())
        .isEqualTo("Invalid value: 2.5");
  }
}
