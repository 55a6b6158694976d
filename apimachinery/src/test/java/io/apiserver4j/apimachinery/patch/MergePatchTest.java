/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static io.apiserver4j.apimachinery.patch.PatchFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class MergePatchTest {

  static Stream<Arguments> cases() {
    return PatchFixtures.cases("merge-patch-cases.yaml").stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void appliesAsKubeApiserver(String name, MapValue c) {
    Value document = c.getOrNull("document");
    Value patch = c.getOrNull("patch");
    String before = Json.write(document);
    if (c.getOrNull("error") instanceof MapValue error) {
      assertThatThrownBy(() -> MergePatch.apply(document, patch))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.code()).isEqualTo(((IntegerValue) error.getOrNull("code")).value());
            assertThat(e.status().reason().wireName())
                .isEqualTo(((StringValue) error.getOrNull("reason")).value());
            assertThat(e.getMessage())
                .isEqualTo(((StringValue) error.getOrNull("message")).value());
          });
    } else {
      assertThat(MergePatch.apply(document, patch)).isEqualTo(c.getOrNull("result"));
    }
    assertThat(Json.write(document)).isEqualTo(before);
  }

  @Test
  void unchangedSubtreesAreShared() {
    MapValue document = (MapValue) json("{\"keep\":{\"x\":[1]},\"change\":{\"y\":1,\"z\":2}}");
    MapValue result = (MapValue) MergePatch.apply(document, json("{\"change\":{\"y\":5}}"));
    assertThat(result.getOrNull("keep")).isSameAs(document.getOrNull("keep"));
    assertThat(result).isEqualTo(json("{\"keep\":{\"x\":[1]},\"change\":{\"y\":5,\"z\":2}}"));
    assertThat(MergePatch.apply(document, json("{\"change\":{\"y\":1}}"))).isSameAs(document);
  }

  @Test
  void keepsMemberOrderAndAppendsNewMembers() {
    Value result = MergePatch.apply(json("{\"b\":1,\"a\":2}"), json("{\"c\":3,\"b\":4}"));
    assertThat(Json.write(result)).isEqualTo("{\"b\":4,\"a\":2,\"c\":3}");
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "{\"a\":1}                   | {\"a\":2}                  | {\"a\":2}",
      "{\"a\":1}                   | {\"a\":1}                  | {}",
      "{\"a\":1}                   | {}                         | {\"a\":null}",
      "{}                          | {\"a\":{\"b\":[1]}}        | {\"a\":{\"b\":[1]}}",
      "{\"a\":{\"b\":1,\"c\":2}}   | {\"a\":{\"b\":1,\"c\":3}}  | {\"a\":{\"c\":3}}",
      "{\"a\":{\"b\":1}}           | {\"a\":{\"b\":1}}          | {}",
      "{\"a\":{\"b\":1}}           | {\"a\":{}}                 | {\"a\":{\"b\":null}}",
      "{\"a\":[1,2]}               | {\"a\":[1,2]}              | {}",
      "{\"a\":[1,2]}               | {\"a\":[2,1]}              | {\"a\":[2,1]}",
      "{\"a\":[{\"x\":1}]}         | {\"a\":[{\"x\":1}]}        | {}",
      "{\"a\":1}                   | {\"a\":1.0}                | {}",
      "{\"a\":1}                   | {\"a\":\"1\"}              | {\"a\":\"1\"}",
      "{\"a\":{\"b\":1}}           | {\"a\":[1]}                | {\"a\":[1]}",
      "{\"a\":null}                | {\"a\":null}               | {}",
      "{\"a\":null}                | {\"a\":1}                  | {\"a\":1}",
      "{\"a\":1}                   | {\"a\":null}               | {\"a\":null}",
      "{\"a\":true,\"b\":\"x\"}    | {\"a\":false,\"b\":\"x\"}  | {\"a\":false}",
  })
  void createsTheDiff(String original, String modified, String expected) {
    MapValue patch = MergePatch.create(json(original.trim()), json(modified.trim()));
    assertThat(patch).isEqualTo(json(expected.trim()));
  }

  @Test
  void createdPatchTurnsOriginalIntoModified() {
    Value original = json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\",\"y\":\"2\"}},"
        + "\"spec\":{\"replicas\":1,\"ports\":[80],\"gone\":{\"q\":1}}}");
    Value modified = json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\",\"z\":\"3\"}},"
        + "\"spec\":{\"replicas\":2,\"ports\":[80,443]},\"status\":{}}");
    MapValue patch = MergePatch.create(original, modified);
    assertThat(patch).isEqualTo(json("{\"metadata\":{\"labels\":{\"y\":null,\"z\":\"3\"}},"
        + "\"spec\":{\"replicas\":2,\"ports\":[80,443],\"gone\":null},\"status\":{}}"));
    assertThat(MergePatch.apply(original, patch)).isEqualTo(modified);
  }

  @Test
  void createNeedsTwoObjects() {
    assertThatThrownBy(() -> MergePatch.create(json("[]"), json("{}")))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
