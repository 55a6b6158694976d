/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.Value;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathElementsTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "f:spec                              | f:spec",
      "`f:`                                | `f:`",
      "f:a:b.c/d                           | f:a:b.c/d",
      "i:0                                 | i:0",
      "i:+7                                | i:7",
      "i:-1                                | i:-1",
      "i:9223372036854775807               | i:9223372036854775807",
      "v:3                                 | v:3",
      "v:3.0                               | v:3",
      "v:1e21                              | v:1e+21",
      "v:0.0000001                         | v:1e-7",
      "`v: \"a\" `                         | `v:\"a\"`",
      "v:\"<&>\"                           | v:\"\\u003c\\u0026\\u003e\"",
      "v:\"\\b\\f\\u2028\"                 | v:\"\\u0008\\u000c\\u2028\"",
      "v:{\"b\":1,\"a\":[true,null]}       | v:{\"a\":[true,null],\"b\":1}",
      "v:{\"a\":1,\"a\":2}                 | v:{\"a\":2}",
      "k:{\"port\":80,\"name\":\"x\"}      | k:{\"name\":\"x\",\"port\":80}",
      "k:null                              | k:{}",
      "`k: {} `                            | k:{}",
      "k:{\"a\":1,\"a\":2}                 | k:{\"a\":1,\"a\":2}",
      "k:{\"a\\u002fb\":\"\\ud83d\\ude80\"}| k:{\"a/b\":\"\uD83D\uDE80\"}",
  })
  void parsesAndReserializes(String input, String reserialized) {
    PathElement e = PathElements.parse(input);
    assertThat(PathElements.serialize(e)).isEqualTo(reserialized);
    assertThat(PathElements.parse(reserialized)).isEqualTo(e);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "``                    | key must be 2 characters long:",
      "f                     | key must be 2 characters long:",
      "é                     | missing colon: é",
      "fx                    | missing colon: fx",
      "\uD83D\uDE80          | missing colon: \uD83D\uDE80",
      "r:Hello               | unknown path element type",
      "i:                    | not a base-10 integer",
      "`i: 0`                | not a base-10 integer",
      "i:1.5                 | not a base-10 integer",
      "i:99999999999999999999| value out of range",
      "v:                    | expected a JSON value",
      "v:invalid             | expected a JSON value",
      "v:1 2                 | unexpected trailing data",
      "v:[1,]                | expected a JSON value",
      "v:01                  | unexpected trailing data",
      "v:\"a                 | unterminated string",
      "v:\"\\x\"             | invalid escape",
      "k:[]                  | expected '{' or null",
      "k:{\"a\":1} x         | unexpected trailing data",
      "k:{\"a\":invalid}     | expected a JSON value",
      "k:{a:1}               | expected '\"' to start a field name",
  })
  void rejectsMalformedElements(String input, String message) {
    assertThatThrownBy(() -> PathElements.parse(input))
        .isInstanceOf(FieldsV1Exception.class)
        .hasMessageContaining(message);
  }

  @org.junit.jupiter.api.Test
  void deeplyNestedValuesAreLimited() {
    String deep = "v:" + "[".repeat(ElementJson.MAX_DEPTH + 1) + "]".repeat(ElementJson.MAX_DEPTH + 1);
    assertThatThrownBy(() -> PathElements.parse(deep)).isInstanceOf(FieldsV1Exception.class)
        .hasMessageContaining("nesting deeper than");
    String ok = "v:" + "[".repeat(50) + "]".repeat(50);
    assertThat(PathElements.parse(ok)).isInstanceOf(SetMember.class);
  }

  @org.junit.jupiter.api.Test
  void serializesEveryKind() {
    Value port = Value.of(443);
    assertThat(PathElements.serialize(PathElement.field("a\"b"))).isEqualTo("f:a\"b");
    assertThat(PathElements.serialize(PathElement.key(new KeyField("protocol", Value.of("tcp")),
        new KeyField("port", port)))).isEqualTo("k:{\"port\":443,\"protocol\":\"tcp\"}");
    assertThat(PathElements.serialize(PathElement.value(Json.read("3.14159"))))
        .isEqualTo("v:3.14159");
    assertThat(PathElements.serialize(PathElement.index(2147483648L))).isEqualTo("i:2147483648");
  }
}
