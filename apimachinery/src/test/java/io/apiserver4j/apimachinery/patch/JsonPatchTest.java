/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.errors.RequestEntityTooLargeException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;

class JsonPatchTest {

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = JsonPatchTest.class.getResourceAsStream("json-patch-cases.yaml")) {
      MapValue doc = (MapValue) Yaml.read(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      return ((ListValue) doc.getOrNull("cases")).items().stream().map(c -> Arguments.of(
          ((StringValue) ((MapValue) c).getOrNull("name")).value(), c));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void appliesAsKubeApiserver(String name, MapValue c) {
    Value document = c.getOrNull("document");
    Value patch = c.getOrNull("patch");
    String before = Json.write(document);
    if (c.getOrNull("failure") instanceof StringValue failure) {
      assertThatThrownBy(() -> JsonPatch.applyOrFail(document, patch, 0))
          .isInstanceOf(JsonPatch.Failure.class)
          .hasMessage(failure.value());
      assertThatThrownBy(() -> JsonPatch.apply(document, patch))
          .isInstanceOfSatisfying(InvalidException.class, e -> {
            assertThat(e.code()).isEqualTo(422);
            assertThat(e.getMessage())
                .isEqualTo("the server rejected our request due to an error in our request");
          });
    } else {
      Value result = JsonPatch.apply(document, patch);
      assertThat(result).isEqualTo(c.getOrNull("result"));
    }
    assertThat(Json.write(document)).as("the document is not changed").isEqualTo(before);
  }

  @Test
  void failedOperationIsKubesGeneric422WithoutTheLibraryText() {
    StatusException e = catchStatus(() -> JsonPatch.apply(json("{\"a\":1}"),
        json("[{\"op\":\"test\",\"path\":\"/a\",\"value\":2}]")));
    assertThat(e).isInstanceOf(InvalidException.class);
    assertThat(e.status().causes()).isEmpty();
    assertThat(e.status().toJson()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"the server rejected our request"
        + " due to an error in our request\",\"reason\":\"Invalid\",\"code\":422}");
  }

  @Test
  void patchThatIsNotAnArrayIsBadRequest() {
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json("{\"op\":\"add\"}")))
        .isInstanceOfSatisfying(BadRequestException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessage("json: cannot unmarshal object into Go value of type jsonpatch.Patch");
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json("\"add\"")))
        .hasMessage("json: cannot unmarshal string into Go value of type jsonpatch.Patch");
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json("[{\"op\":\"add\"}, 5]")))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("json: cannot unmarshal number into Go value of type jsonpatch.Operation");
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json("[[]]")))
        .hasMessage("json: cannot unmarshal array into Go value of type jsonpatch.Operation");
  }

  @Test
  void nullPatchHasNoOperations() {
    Value document = json("{\"a\":1}");
    assertThat(JsonPatch.apply(document, Value.nullValue())).isSameAs(document);
  }

  @Test
  void atMostTenThousandOperations() {
    Value document = json("{\"a\":[]}");
    assertThat(JsonPatch.apply(document, appends(10_000)))
        .satisfies(v -> assertThat(((ListValue) ((MapValue) v).getOrNull("a")).size())
            .isEqualTo(10_000));

    StatusException e = catchStatus(() -> JsonPatch.apply(document, appends(10_001)));
    assertThat(e).isInstanceOf(RequestEntityTooLargeException.class);
    assertThat(e.code()).isEqualTo(413);
    assertThat(e.status().reason().wireName()).isEqualTo("RequestEntityTooLarge");
    assertThat(e.getMessage()).isEqualTo("Request entity too large: The allowed maximum"
        + " operations in a JSON patch is 10000, got 10001");
  }

  @Test
  void operationLimitIsCheckedAfterDecodingAndBeforeApplying() {
    ListValue.Builder ops = ListValue.builder();
    for (int i = 0; i < 10_001; i++) {
      ops.add(json("{\"op\":\"frob\"}"));
    }
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), ops.build()))
        .isInstanceOf(RequestEntityTooLargeException.class);
    ops.add(json("7"));
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), ops.build()))
        .isInstanceOf(BadRequestException.class);
  }

  @Test
  void copiesMayGrowTheDocumentByTheLimitAndNoMore() {
    // Each copy of the 49-character string adds 51 bytes of JSON (quotes included).
    Value document = json("{\"foo\":[\"A\",\"" + "A".repeat(49) + "\"]}");
    Value twoCopies = json("[{\"op\":\"copy\",\"from\":\"/foo/1\",\"path\":\"/foo/-\"},"
        + "{\"op\":\"copy\",\"from\":\"/foo/1\",\"path\":\"/foo/-\"}]");
    assertThat(JsonPatch.apply(document, twoCopies, 102)).isNotNull();
    assertThatThrownBy(() -> JsonPatch.applyOrFail(document, twoCopies, 101))
        .hasMessage("Unable to complete the copy, the accumulated size increase of copy is 102,"
            + " exceeding the limit 101");
    assertThatThrownBy(() -> JsonPatch.apply(document, twoCopies, 101))
        .isInstanceOf(InvalidException.class);
    assertThat(JsonPatch.apply(document, twoCopies, 0)).as("0 means unlimited").isNotNull();
  }

  @Test
  void defaultCopyLimitIsThreeMebibytes() {
    assertThat(JsonPatch.DEFAULT_MAX_COPY_BYTES).isEqualTo(3L * 1024 * 1024);
    Value big = MapValue.ofEntries("big", Value.of("x".repeat(1024 * 1024)));
    ListValue.Builder copies = ListValue.builder();
    for (int i = 0; i < 4; i++) {
      copies.add(MapValue.ofEntries("op", Value.of("copy"), "from", Value.of("/big"),
          "path", Value.of("/c" + i)));
    }
    assertThatThrownBy(() -> JsonPatch.apply(big, copies.build()))
        .isInstanceOf(InvalidException.class);
  }

  @Test
  void unchangedSubtreesAreShared() {
    MapValue document = (MapValue) json("{\"keep\":{\"deep\":[1,2,3]},\"change\":{\"x\":1}}");
    MapValue result = (MapValue) JsonPatch.apply(document,
        json("[{\"op\":\"replace\",\"path\":\"/change/x\",\"value\":2},"
            + "{\"op\":\"test\",\"path\":\"/keep/deep/0\",\"value\":1}]"));
    assertThat(result.getOrNull("keep")).isSameAs(document.getOrNull("keep"));
    assertThat(result.getOrNull("change")).isEqualTo(json("{\"x\":2}"));
    assertThat(document.getOrNull("change")).isEqualTo(json("{\"x\":1}"));
  }

  @Test
  void documentMustBeAnObjectOrArray() {
    assertThatThrownBy(() -> JsonPatch.apply(Value.of(1), json("[]")))
        .isInstanceOf(InvalidException.class);
  }

  @Test
  void strictDecodingReportsUnknownOperationMembers() {
    assertThat(JsonPatch.strictErrors(json("[{\"op\":\"add\",\"path\":\"/a\",\"value\":1},"
        + "{\"op\":\"remove\",\"path\":\"/b\",\"Value\":1,\"xyz\":2},null]")))
        .containsExactly("json patch unknown field \"[1].Value\"",
            "json patch unknown field \"[1].xyz\"");
    assertThat(JsonPatch.strictErrors(Value.nullValue())).isEmpty();
    assertThat(JsonPatch.strictErrors(json("[{\"op\":\"move\",\"from\":\"/a\",\"path\":null}]")))
        .isEmpty();
  }

  @Test
  void strictDecodingRejectsMistypedOperations() {
    assertThatThrownBy(() -> JsonPatch.strictErrors(json("{}")))
        .isInstanceOf(BadRequestException.class)
        .hasMessage("error decoding patch: json: cannot unmarshal object into Go value of type"
            + " []handlers.jsonPatchOp");
    assertThatThrownBy(() -> JsonPatch.strictErrors(json("[\"x\"]")))
        .hasMessage("error decoding patch: json: cannot unmarshal string into Go value of type"
            + " handlers.jsonPatchOp");
    assertThatThrownBy(() -> JsonPatch.strictErrors(json("[{\"op\":true}]")))
        .hasMessage("error decoding patch: json: cannot unmarshal bool into Go struct field"
            + " jsonPatchOp.op of type string");
  }

  @Test
  void longPatchesOnLargeListsStayLinear() {
    ListValue.Builder items = ListValue.builder();
    for (int i = 0; i < 50_000; i++) {
      items.add(Value.of(i));
    }
    MapValue document = MapValue.ofEntries("a", items.build());
    ListValue.Builder ops = ListValue.builder();
    for (int i = 0; i < 10_000; i++) {
      ops.add(MapValue.ofEntries("op", Value.of("replace"), "path", Value.of("/a/" + i),
          "value", Value.of(-i)));
    }
    MapValue result = (MapValue) JsonPatch.apply(document, ops.build());
    ListValue a = (ListValue) result.getOrNull("a");
    assertThat(a.size()).isEqualTo(50_000);
    assertThat(a.get(9_999)).isEqualTo(Value.of(-9_999));
    assertThat(a.get(10_000)).isEqualTo(Value.of(10_000));
  }

  @Test
  void rejectsNegativeCopyLimit() {
    assertThatThrownBy(() -> JsonPatch.apply(json("{}"), json("[]"), -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static ListValue appends(int n) {
    ListValue.Builder ops = ListValue.builder(n);
    Value op = json("{\"op\":\"add\",\"path\":\"/a/-\",\"value\":1}");
    for (int i = 0; i < n; i++) {
      ops.add(op);
    }
    return ops.build();
  }

  static Value json(String s) {
    return Json.read(s);
  }

  static StatusException catchStatus(Runnable r) {
    try {
      r.run();
    } catch (StatusException e) {
      return e;
    }
    throw new AssertionError("expected a StatusException");
  }
}
