/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.apimachinery.decoding.GoFormat;
import static io.apiserver4j.apimachinery.patch.PatchFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoFormatTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "1.0, 1", "1.5, 1.5", "-2.25, -2.25", "100000.0, 100000", "1000000.0, 1e+06",
      "123456789.0, 1.23456789e+08", "0.0001, 0.0001", "0.00001, 1e-05", "1e21, 1e+21",
      "1.5e-300, 1.5e-300", "-0.0, -0"
  })
  void formatsFloatsLikePercentV(double d, String expected) {
    assertThat(GoFormat.formatFloat(d)).isEqualTo(expected);
  }

  @Test
  void formatsTreesLikePercentV() {
    assertThat(GoFormat.v(json("{\"b\":[1,\"x\",null,true],\"a\":{\"d\":2.5,\"c\":{}},"
        + "\"B\":[]}")))
        .isEqualTo("map[B:[] a:map[c:map[] d:2.5] b:[1 x <nil> true]]");
  }

  @Test
  void formatsNonStringsLikePercentS() {
    assertThat(GoFormat.s(Value.of("x"))).isEqualTo("x");
    assertThat(GoFormat.s(Value.of(1))).isEqualTo("%!s(int64=1)");
    assertThat(GoFormat.s(Value.of(1.5))).isEqualTo("%!s(float64=1.5)");
    assertThat(GoFormat.s(Value.of(true))).isEqualTo("%!s(bool=true)");
    assertThat(GoFormat.s(Value.nullValue())).isEqualTo("%!s(<nil>)");
  }

  @Test
  void namesGoTypes() {
    assertThat(GoFormat.goType(json("{}"))).isEqualTo("map[string]interface {}");
    assertThat(GoFormat.goType(json("[]"))).isEqualTo("[]interface {}");
    assertThat(GoFormat.goType(Value.nullValue())).isEqualTo("%!s(<nil>)");
    assertThat(io.apiserver4j.core.GoStrings.jsonKind(Value.of(2.0))).isEqualTo("number");
  }
}
