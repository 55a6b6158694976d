/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static io.apiserver4j.apimachinery.patch.PatchFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GoTextTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "1.0, 1", "1.5, 1.5", "-2.25, -2.25", "100000.0, 100000", "1000000.0, 1e+06",
      "123456789.0, 1.23456789e+08", "0.0001, 0.0001", "0.00001, 1e-05", "1e21, 1e+21",
      "1.5e-300, 1.5e-300", "-0.0, -0"
  })
  void formatsFloatsLikePercentV(double d, String expected) {
    assertThat(GoText.formatFloat(d)).isEqualTo(expected);
  }

  @Test
  void formatsTreesLikePercentV() {
    assertThat(GoText.v(json("{\"b\":[1,\"x\",null,true],\"a\":{\"d\":2.5,\"c\":{}},"
        + "\"B\":[]}")))
        .isEqualTo("map[B:[] a:map[c:map[] d:2.5] b:[1 x <nil> true]]");
  }

  @Test
  void formatsNonStringsLikePercentS() {
    assertThat(GoText.s(Value.of("x"))).isEqualTo("x");
    assertThat(GoText.s(Value.of(1))).isEqualTo("%!s(int64=1)");
    assertThat(GoText.s(Value.of(1.5))).isEqualTo("%!s(float64=1.5)");
    assertThat(GoText.s(Value.of(true))).isEqualTo("%!s(bool=true)");
    assertThat(GoText.s(Value.nullValue())).isEqualTo("%!s(<nil>)");
  }

  @Test
  void namesGoTypes() {
    assertThat(GoText.goType(json("{}"))).isEqualTo("map[string]interface {}");
    assertThat(GoText.goType(json("[]"))).isEqualTo("[]interface {}");
    assertThat(GoText.goType(Value.nullValue())).isEqualTo("%!s(<nil>)");
    assertThat(io.apiserver4j.core.GoStrings.jsonKind(Value.of(2.0))).isEqualTo("number");
  }
}
