/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class YamlTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "y|true", "Y|true", "yes|true", "Yes|true", "YES|true", "on|true", "On|true", "ON|true",
      "true|true", "True|true", "TRUE|true",
      "n|false", "N|false", "no|false", "No|false", "NO|false", "off|false", "Off|false",
      "OFF|false", "false|false", "False|false", "FALSE|false"})
  void yaml11BooleansResolveLikeGoYamlV2(String plain, boolean expected) {
    assertThat(Yaml.read("v: " + plain)).isEqualTo(MapValue.ofEntries("v", Value.of(expected)));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "1|int|1", "-7|int|-7", "+3|int|3", "0x1F|int|31", "0o17|int|15", "017|int|15",
      "0b101|int|5", "1_000|int|1000", "9223372036854775807|int|9223372036854775807",
      "1.0|float|1.0", "1.5|float|1.5", "1e3|float|1000.0", "1.|float|1.0", ".5|float|0.5",
      "08|float|8.0", "1e400|str|1e400", "-1e400|str|-1e400", "1e-400|float|0.0",
      "2001-12-14|str|2001-12-14", "1:20|str|1:20", "0x|str|0x", "-x|str|-x", "1.2.3|str|1.2.3",
      "yess|str|yess", "~|null|", "null|null|", "Null|null|"})
  void plainScalarsKeepIntegersAndFloatsApart(String plain, String type, String expected) {
    Value v = ((MapValue) Yaml.read("v: " + plain)).getOrNull("v");
    switch (type) {
      case "int" -> assertThat(v).isEqualTo(Value.of(Long.parseLong(expected)));
      case "float" -> assertThat(v).isEqualTo(Value.of(Double.parseDouble(expected)));
      case "str" -> assertThat(v).isEqualTo(Value.of(expected));
      default -> assertThat(v.isNull()).isTrue();
    }
  }

  @Test
  void quotedAndBlockScalarsAreStrings() {
    MapValue m = (MapValue) Yaml.read("a: \"yes\"\nb: 'n'\nc: |\n  1\nd: !!str 12\ne: !!int \"7\"\n");
    assertThat(m.getOrNull("a")).isEqualTo(Value.of("yes"));
    assertThat(m.getOrNull("b")).isEqualTo(Value.of("n"));
    assertThat(m.getOrNull("c")).isEqualTo(Value.of("1\n"));
    assertThat(m.getOrNull("d")).isEqualTo(Value.of("12"));
    assertThat(m.getOrNull("e")).isEqualTo(Value.of(7));
  }

  @Test
  void nonStringKeysBecomeStringsAsKubernetesDoes() {
    MapValue m = (MapValue) Yaml.read("1: a\ny: b\n1.5: c\n");
    assertThat(m.asMap()).containsOnlyKeys("1", "true", "1.5");
  }

  @Test
  void emptyDocumentIsNullAndNullEmptyListAndEmptyMapAreDistinct() {
    assertThat(Yaml.read("").isNull()).isTrue();
    MapValue m = (MapValue) Yaml.read("a: null\nb: {}\nc: []\n");
    assertThat(m.getOrNull("a")).isEqualTo(Value.nullValue());
    assertThat(m.getOrNull("b")).isEqualTo(MapValue.empty());
    assertThat(m.getOrNull("c")).isEqualTo(ListValue.empty());
  }

  @Test
  void mergeKeysAndAliasesExpand() {
    MapValue m = (MapValue) Yaml.read("base: &b {p: 1, q: 2}\nderived:\n  <<: *b\n  q: 3\n");
    assertThat(m.getOrNull("derived")).isEqualTo(
        MapValue.ofEntries("q", Value.of(3), "p", Value.of(1)));
  }

  @Test
  void multipleDocuments() {
    List<Value> docs = Yaml.readAll("a: 1\n---\nb: 2\n");
    assertThat(docs).hasSize(2);
    assertThatThrownBy(() -> Yaml.read("a: 1\n---\nb: 2\n"))
        .isInstanceOf(DecodeException.class).hasMessageContaining("expected one document");
  }

  @Test
  void duplicateKeysAreRejectedWithTheirPosition() {
    assertThatThrownBy(() -> Yaml.read("a: 1\nb: 2\na: 3\n"))
        .isInstanceOf(DecodeException.class)
        .hasMessageContaining("duplicate key \"a\"")
        .hasMessageContaining("line 3");
  }

  @Test
  void malformedYamlIsAClearError() {
    assertThatThrownBy(() -> Yaml.read("a: [1, 2\nb: 3"))
        .isInstanceOf(DecodeException.class).hasMessageStartingWith("invalid YAML");
    assertThatThrownBy(() -> Yaml.read("a: *nope"))
        .isInstanceOf(DecodeException.class);
  }

  @Test
  void nestingDepthIsLimited() {
    String deep = "[".repeat(50) + "]".repeat(50);
    assertThat(Yaml.read(deep, DecodeLimits.DEFAULT.withMaxDepth(50))).isNotNull();
    assertThatThrownBy(() -> Yaml.read(deep, DecodeLimits.DEFAULT.withMaxDepth(49)))
        .isInstanceOf(DecodeException.class).hasMessageContaining("nesting depth exceeds");
    String veryDeep = "[".repeat(100_000) + "]".repeat(100_000);
    assertThatThrownBy(() -> Yaml.read(veryDeep, DecodeLimits.DEFAULT.withMaxDocumentChars(1 << 20)))
        .isInstanceOf(DecodeException.class);
  }

  @Test
  void billionLaughsIsStopped() {
    StringBuilder sb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    char prev = 'a';
    for (char c = 'b'; c <= 'i'; c++) {
      sb.append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        sb.append(i == 0 ? "" : ",").append('*').append(prev);
      }
      sb.append("]\n");
      prev = c;
    }
    assertThatThrownBy(() -> Yaml.read(sb.toString()))
        .isInstanceOf(DecodeException.class).hasMessageContaining("nodes");
    assertThatThrownBy(() -> Yaml.read(sb.toString(), DecodeLimits.DEFAULT.withMaxAliases(10)))
        .isInstanceOf(DecodeException.class).hasMessageContaining("aliases");
  }

  @Test
  void documentSizeIsLimited() {
    assertThatThrownBy(() -> Yaml.read("a: " + "x".repeat(100), DecodeLimits.DEFAULT.withMaxDocumentChars(50)))
        .isInstanceOf(DecodeException.class).hasMessageContaining("maximum length");
  }

  @Test
  void writeRoundTripsAmbiguousScalars() {
    MapValue v = MapValue.ofEntries(
        "plain", Value.of("hello"),
        "looksBool", Value.of("y"),
        "looksInt", Value.of("0x10"),
        "float", Value.of(1.0),
        "int", Value.of(2),
        "empty", Value.of(""),
        "multi", Value.of("a\nb"),
        "colon", Value.of("a: b"),
        "list", Value.list(Value.of("a"), MapValue.ofEntries("k", Value.of("v"), "n", Value.nullValue())),
        "emptyMap", MapValue.empty(),
        "emptyList", ListValue.empty(),
        "nested", MapValue.ofEntries("deeper", Value.list(Value.list(Value.of(1)))));
    String yaml = Yaml.write(v);
    assertThat(Yaml.read(yaml)).isEqualTo(v);
    assertThat(yaml).contains("looksBool: \"y\"").contains("float: 1.0");
  }
}
