/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class JsonTest {

  @Test
  void readsTheValueTreeKeepingIntegersAndFloatsApart() {
    Value v = Json.read("{\"a\":1,\"b\":1.0,\"c\":\"s\",\"d\":[true,null],\"e\":{}}");
    assertThat(v).isEqualTo(MapValue.ofEntries(
        "a", Value.of(1), "b", Value.of(1.0), "c", Value.of("s"),
        "d", Value.list(Value.of(true), Value.nullValue()), "e", MapValue.empty()));
    assertThat(Value.of(1)).isNotEqualTo(Value.of(1.0));
  }

  @Test
  void keepsInsertionOrderAndComparesMapsIgnoringOrder() {
    MapValue a = (MapValue) Json.read("{\"z\":1,\"a\":2}");
    assertThat(a.keyAt(0)).isEqualTo("z");
    assertThat(a).isEqualTo(Json.read("{\"a\":2,\"z\":1}"));
    assertThat(a.hashCode()).isEqualTo(Json.read("{\"a\":2,\"z\":1}").hashCode());
  }

  @Test
  void writesLikeGoEncodingJson() {
    assertThat(Json.write(Value.of("<a&b>\u2028"))).isEqualTo("\"\\u003ca\\u0026b\\u003e\\u2028\"");
    assertThat(Json.write(MapValue.ofEntries("f", Value.of(1.0), "g", Value.of(0.5),
        "h", Value.of(1e21), "i", Value.of(1e-7), "j", Value.of(123456789.0))))
        .isEqualTo("{\"f\":1,\"g\":0.5,\"h\":1e+21,\"i\":1e-7,\"j\":123456789}");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "{\"a\":1,\"a\":2}|duplicate field \"a\"",
      "{\"a\":|invalid JSON",
      "[1,2]x|invalid JSON",
      "{\"a\":1} {}|unexpected content after the top-level value",
      "|empty input",
      "{'a':1}|invalid JSON",
      "[1,]|invalid JSON"})
  void malformedInputIsAClearError(String input, String message) {
    assertThatThrownBy(() -> Json.read(input == null ? "" : input))
        .isInstanceOf(DecodeException.class).hasMessageContaining(message);
  }

  @Test
  void nestingDepthAndSizeAreLimited() {
    // kube-apiserver's JSON decoder accepts 10,000 levels and rejects the 10,001st
    String deep = "[".repeat(10_001) + "]".repeat(10_001);
    assertThatThrownBy(() -> Json.read(deep))
        .isInstanceOf(DecodeException.class).hasMessageContaining("exceeds a limit");
    assertThat(Json.read(deep.substring(1, deep.length() - 1))).isNotNull();
    String shallower = "[".repeat(2000) + "]".repeat(2000);
    assertThatThrownBy(() -> Json.read(shallower, DecodeLimits.DEFAULT.withMaxDepth(1000)))
        .isInstanceOf(DecodeException.class).hasMessageContaining("exceeds a limit");
    byte[] big = ("\"" + "x".repeat(200) + "\"").getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> Json.read(big, DecodeLimits.DEFAULT.withMaxDocumentChars(100)))
        .isInstanceOf(DecodeException.class).hasMessageContaining("maximum length");
  }

  @Test
  void hugeIntegersBecomeFloats() {
    assertThat(Json.read("18446744073709551616")).isEqualTo(Value.of(1.8446744073709552e19));
  }

  @Test
  void keepLastLetsTheLastDuplicateWinAndReportsItsPath() throws Exception {
    String json = "{\"a\":1,\"m\":{\"x\":1,\"x\":{\"y\":1,\"y\":2}},"
        + "\"l\":[{},{\"k\":1,\"k\":[[{\"z\":1,\"z\":2}]]}],\"a\":3}";
    java.util.List<String> duplicates = new java.util.ArrayList<>();
    Value v;
    try (com.fasterxml.jackson.core.JsonParser p =
        new com.fasterxml.jackson.core.JsonFactory().createParser(json)) {
      v = Json.readValue(p, p.nextToken(), Json.DuplicateKeys.KEEP_LAST, duplicates::add);
    }
    assertThat(v).isEqualTo(Json.read("{\"a\":3,\"m\":{\"x\":{\"y\":2}},"
        + "\"l\":[{},{\"k\":[[{\"z\":2}]]}]}"));
    assertThat(duplicates).containsExactly("m.x.y", "m.x", "l[1].k[0][0].z", "l[1].k", "a");
  }

  @Test
  void rejectIsTheDefaultForStreamingReads() throws Exception {
    try (com.fasterxml.jackson.core.JsonParser p =
        new com.fasterxml.jackson.core.JsonFactory().createParser("{\"a\":1,\"a\":2}")) {
      assertThatThrownBy(() -> Json.readValue(p, p.nextToken()))
          .isInstanceOf(DecodeException.class).hasMessageContaining("duplicate field \"a\"");
    }
  }
}
