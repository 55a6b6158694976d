/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static io.apiserver4j.fieldpath.PathElement.field;
import static io.apiserver4j.fieldpath.PathElement.index;
import static io.apiserver4j.fieldpath.PathElement.key;
import static io.apiserver4j.fieldpath.PathElement.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class FieldsV1Test {

  @Test
  void encodesInElementOrderWithDotFirst() {
    FieldSet s = FieldSet.of(
        FieldPath.of(index(1)),
        FieldPath.of(value(Value.of(3))),
        FieldPath.of(key("name", Value.of("c"))),
        FieldPath.of(field("spec")),
        FieldPath.of(field("spec"), field("replicas")),
        FieldPath.of(field("spec"), field("containers"), key("name", Value.of("c")), field("image")),
        FieldPath.of(field("apiVersion")));
    assertThat(FieldsV1.encode(s)).isEqualTo("{\"f:apiVersion\":{},\"f:spec\":{\".\":{},"
        + "\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\"f:image\":{}}},\"f:replicas\":{}},"
        + "\"k:{\\\"name\\\":\\\"c\\\"}\":{},\"v:3\":{},\"i:1\":{}}");
    assertThat(FieldsV1.encode(FieldSet.empty())).isEqualTo("{}");
  }

  @Test
  void escapesLikeGo() {
    FieldSet s = FieldSet.of(FieldPath.of(field("a<b>&c\u2028\u2029\b\u0001\t\"\\")),
        FieldPath.of(key("n", Value.of("<x>"))), FieldPath.of(field("\uD83D\uDE80\u00e9")));
    String json = FieldsV1.encode(s);
    assertThat(json).isEqualTo("{\"f:a\\u003cb\\u003e\\u0026c\\u2028\\u2029\\u0008\\u0001\\t\\\"\\\\\":{},"
        + "\"f:\uD83D\uDE80\u00e9\":{},\"k:{\\\"n\\\":\\\"\\\\u003cx\\\\u003e\\\"}\":{}}");
    assertThat(FieldsV1.decode(json)).isEqualTo(s);
    assertThat(new String(FieldsV1.encodeBytes(s), StandardCharsets.UTF_8)).isEqualTo(json);
  }

  static Stream<Long> seeds() {
    return IntStream.range(0, 200).mapToObj(i -> 31L * i + 5);
  }

  private static PathElement randomElement(Random r) {
    switch (r.nextInt(6)) {
      case 0:
        return field(randomString(r));
      case 1:
        return key(new KeyField("name", Value.of(randomString(r))),
            new KeyField("port", Value.of(r.nextInt(3))));
      case 2:
        return value(r.nextBoolean() ? Value.of(randomString(r)) : Value.of(r.nextInt(4) - 1.5));
      case 3:
        return value(io.apiserver4j.core.MapValue.ofEntries("b", Json.read("[1,null,true]"),
            "a", Value.of(randomString(r))));
      case 4:
        return index(r.nextInt(5));
      default:
        return field("f" + r.nextInt(4));
    }
  }

  private static String randomString(Random r) {
    String[] parts = {"a", "B", "<", "&", "\"", "\\", "\n", "\u00e9", "\uD83D\uDE80", " ", ".", ":",
        "\u2028", "\u0007", "{"};
    StringBuilder sb = new StringBuilder();
    int n = r.nextInt(4);
    for (int i = 0; i < n; i++) {
      sb.append(parts[r.nextInt(parts.length)]);
    }
    return sb.toString();
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void roundTripsRandomSets(long seed) {
    Random r = new Random(seed);
    FieldSet.Builder b = FieldSet.builder();
    int n = r.nextInt(30);
    for (int i = 0; i < n; i++) {
      PathElement[] p = new PathElement[1 + r.nextInt(4)];
      for (int j = 0; j < p.length; j++) {
        p[j] = randomElement(r);
      }
      b.insert(FieldPath.of(p));
    }
    FieldSet s = b.build();
    String json = FieldsV1.encode(s);
    assertThat(FieldsV1.decode(json)).isEqualTo(s);
    assertThat(FieldsV1.decode(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(s);
    // the value-tree forms agree with the text forms
    assertThat(Json.write(FieldsV1.toValue(s))).isEqualTo(json);
    assertThat(FieldsV1.decode(Json.read(json))).isEqualTo(s);
    // canonical: re-encoding is stable
    assertThat(FieldsV1.encode(FieldsV1.decode(json))).isEqualTo(json);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      // whitespace and null
      "` {\"f:a\":{}} `                                 | {\"f:a\":{}}",
      "null                                             | {}",
      "`{}`                                             | {}",
      // null and {} leaves; '.' with any value
      "{\"f:a\":null}                                   | {\"f:a\":{}}",
      "{\"f:a\":{\".\":[1,2],\"f:b\":{}}}               | {\"f:a\":{\".\":{},\"f:b\":{}}}",
      "{\"f:a\":{\".\":{}}}                             | {\"f:a\":{}}",
      "{\".\":{},\"f:a\":{}}                            | {\"f:a\":{}}",
      // unknown types dropped with their subtree; a node left without children is a member
      "{\"f:aaa\":{},\"r:aab\":{}}                      | {\"f:aaa\":{}}",
      "{\"f:a\":{\"z:x\":{\"f:q\":{}}}}                 | {\"f:a\":{}}",
      "{\"f:a\":{\"z:x\":[1]}}                          | {\"f:a\":{}}",
      // order does not matter; duplicates
      "{\"i:1\":{},\"f:b\":{},\"f:a\":{}}               | {\"f:a\":{},\"f:b\":{},\"i:1\":{}}",
      "{\"f:a\":{},\"f:a\":{}}                          | {\"f:a\":{}}",
      "{\"f:a\":{},\"f:a\":{\"f:b\":{}}}                | {\"f:a\":{\".\":{},\"f:b\":{}}}",
      "{\"f:a\":{\"f:b\":{}},\"f:a\":{\"f:c\":{}}}      | {\"f:a\":{\"f:c\":{}}}",
      "{\"f:c\":{\"f:x\":{}},\"f:a\":{\"f:b\":{}},\"f:a\":{\"f:c\":{}}} | {\"f:a\":{\"f:c\":{}},\"f:c\":{\"f:x\":{}}}",
      // k: field order normalised, v: numbers canonical
      "{\"k:{\\\"port\\\":1,\\\"name\\\":\\\"a\\\"}\":{}} | {\"k:{\\\"name\\\":\\\"a\\\",\\\"port\\\":1}\":{}}",
      "{\"v:1.0\":{},\"v:1\":{}}                        | {\"v:1\":{}}",
  })
  void decodesWhatSmdAccepts(String input, String canonical) {
    assertThat(FieldsV1.encode(FieldsV1.decode(input))).isEqualTo(canonical);
    assertThat(FieldsV1.encode(FieldsV1.decode(input.getBytes(StandardCharsets.UTF_8))))
        .isEqualTo(canonical);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "``                        | expected '{' or null, found end of input",
      "`   `                     | expected '{' or null, found end of input",
      "\"hi\"                    | expected '{' or null, found a string",
      "[]                        | expected '{' or null, found '['",
      "{\"f:a\":[]}              | value of \"f:a\" must be an object or null, found '['",
      "{\"f:a\":1}               | must be an object or null, found a number",
      "{\"x\":{}}                | key \"x\" is not a path element: key must be 2 characters long:",
      "{\"fa\":{}}               | missing colon: fa",
      "{\"i:x\":{}}              | not a base-10 integer",
      "{\"f:a\":{}} \"x\"        | unexpected trailing data after JSON object",
      "{\"f:a\":{}}}             | unexpected trailing data after JSON object",
      "{\"f:a\":{}}{}            | unexpected trailing data after JSON object",
      "{\"f:a\":{},}             | invalid FieldsV1 JSON at line 1",
      "{\"f:a\"                  | invalid FieldsV1 JSON",
      "{\"f:a\":{}               | invalid FieldsV1 JSON",
      "{1:{}}                    | invalid FieldsV1 JSON",
  })
  void rejectsMalformedInput(String input, String message) {
    assertThatThrownBy(() -> FieldsV1.decode(input)).isInstanceOf(FieldsV1Exception.class)
        .hasMessageContaining(message);
    assertThatThrownBy(() -> FieldsV1.decode(input.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(FieldsV1Exception.class);
  }

  @Test
  void valueTreeDecodingValidatesShapes() {
    assertThat(FieldsV1.decode(Value.nullValue())).isEqualTo(FieldSet.empty());
    assertThatThrownBy(() -> FieldsV1.decode(Json.read("[1]")))
        .isInstanceOf(FieldsV1Exception.class).hasMessageContaining("expected an object or null");
    assertThatThrownBy(() -> FieldsV1.decode(Json.read("{\"f:a\":{\"f:b\":\"x\"}}")))
        .isInstanceOf(FieldsV1Exception.class)
        .hasMessageContaining("value of \"f:b\" under /f:a must be an object or null");
    assertThatThrownBy(() -> FieldsV1.decode(Json.read("{\"f:a\":{\"q\":{}}}")))
        .isInstanceOf(FieldsV1Exception.class).hasMessageContaining("key \"q\" under /f:a");
    assertThat(FieldsV1.decode(Json.read("{\"f:a\":{\"z:q\":{}},\"f:b\":null}")))
        .isEqualTo(FieldSet.of(FieldPath.of(field("a")), FieldPath.of(field("b"))));
  }

  @Test
  void nestingIsLimited() {
    int depth = FieldsV1.MAX_DEPTH + 5;
    String deep = "{\"f:a\":".repeat(depth) + "{}" + "}".repeat(depth);
    assertThatThrownBy(() -> FieldsV1.decode(deep)).isInstanceOf(FieldsV1Exception.class)
        .hasMessageContaining("depth");
    String ok = "{\"f:a\":".repeat(200) + "{}" + "}".repeat(200);
    assertThat(FieldsV1.decode(ok).size()).isEqualTo(1);
  }
}
