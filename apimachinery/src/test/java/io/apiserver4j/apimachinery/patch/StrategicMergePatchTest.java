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
import io.apiserver4j.core.NullValue;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StrategicMergePatchTest {

  static Stream<Arguments> cases() {
    return PatchFixtures.cases("strategic-merge-patch-cases.yaml").stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void appliesAsKubeApiserver(String name, MapValue c) {
    String schemaName = ((StringValue) c.getOrNull("schema")).value();
    PatchSchema schema = schemaName.equals("mergeItem") ? PatchFixtures.mergeItem()
        : PatchFixtures.kubeSchema(schemaName);
    Value document = c.getOrNull("document");
    Value patch = c.getOrNull("patch");
    String before = Json.write(document);
    if (c.getOrNull("error") instanceof MapValue error) {
      assertThatThrownBy(() -> StrategicMergePatch.apply(document, patch, schema))
          .isInstanceOfSatisfying(StatusException.class, e -> {
            assertThat(e.getMessage())
                .isEqualTo(((StringValue) error.getOrNull("message")).value());
            assertThat(e.code()).isEqualTo(((IntegerValue) error.getOrNull("code")).value());
            assertThat(e.status().reason().wireName())
                .isEqualTo(((StringValue) error.getOrNull("reason")).value());
          });
    } else {
      Value expected = document;
      MapValue changes = (MapValue) c.getOrNull("expect");
      for (int i = 0; i < changes.size(); i++) {
        expected = set((MapValue) expected, Arrays.asList(changes.keyAt(i).split("\\.")),
            changes.valueAt(i));
      }
      Value result = StrategicMergePatch.apply(document, patch, schema);
      // Element order matters (lists compare in order); member order of objects does not.
      assertThat(result).isEqualTo(expected);
    }
    assertThat(Json.write(document)).as("the document is not changed").isEqualTo(before);
  }

  @Test
  void nullPatchChangesNothing() {
    Value document = json("{\"a\":1}");
    assertThat(StrategicMergePatch.apply(document, Value.nullValue(), PatchSchema.unknown()))
        .isSameAs(document);
  }

  @Test
  void unchangedSubtreesAreShared() {
    MapValue pod = (MapValue) json("{\"metadata\":{\"name\":\"a\",\"labels\":{\"x\":\"1\"}},"
        + "\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"a\"},{\"name\":\"b\"}],"
        + "\"volumes\":[{\"name\":\"v\"}]}}");
    PatchSchema schema = PatchFixtures.kubeSchema("io.k8s.api.core.v1.Pod");
    MapValue result = (MapValue) StrategicMergePatch.apply(pod,
        json("{\"spec\":{\"containers\":[{\"name\":\"b\",\"image\":\"b\"}]}}"), schema);
    MapValue spec = (MapValue) result.getOrNull("spec");
    MapValue oldSpec = (MapValue) pod.getOrNull("spec");
    assertThat(result.getOrNull("metadata")).isSameAs(pod.getOrNull("metadata"));
    assertThat(spec.getOrNull("volumes")).isSameAs(oldSpec.getOrNull("volumes"));
    assertThat(((io.apiserver4j.core.ListValue) spec.getOrNull("containers")).get(0))
        .isSameAs(((io.apiserver4j.core.ListValue) oldSpec.getOrNull("containers")).get(0));

    assertThat(StrategicMergePatch.apply(pod, json("{\"metadata\":{\"labels\":{\"x\":\"1\"}}}"),
        schema)).as("a patch that changes nothing returns the document").isSameAs(pod);
  }

  @Test
  void keepsMemberOrderAndAppendsNewMembers() {
    Value result = StrategicMergePatch.apply(json("{\"b\":1,\"a\":{\"y\":1,\"x\":2}}"),
        json("{\"c\":3,\"a\":{\"z\":0,\"y\":5},\"b\":4}"), PatchSchema.unknown());
    assertThat(Json.write(result)).isEqualTo("{\"b\":4,\"a\":{\"y\":5,\"x\":2,\"z\":0},\"c\":3}");
  }

  @Test
  void schemalessPatchMergesMapsAndReplacesLists() {
    Value document = json("{\"a\":{\"b\":[1,2],\"c\":{\"d\":1}},\"e\":1}");
    Value patch = json("{\"a\":{\"b\":[3],\"c\":{\"f\":2}},\"e\":null}");
    assertThat(StrategicMergePatch.apply(document, patch, PatchSchema.unknown()))
        .isEqualTo(MergePatch.apply(document, patch))
        .isEqualTo(json("{\"a\":{\"b\":[3],\"c\":{\"d\":1,\"f\":2}}}"));
  }

  @Test
  void documentMustBeAnObject() {
    assertThatThrownBy(() -> StrategicMergePatch.apply(json("[]"), json("{}"),
        PatchSchema.unknown()))
        .isInstanceOfSatisfying(StatusException.class, e -> assertThat(e.code()).isEqualTo(400))
        .hasMessage("invalid JSON document");
  }

  @Test
  void unmappedErrorsSerializeWithoutReason() {
    StatusException e = PatchFixtures.catchStatus(() -> StrategicMergePatch.apply(
        json("{\"spec\":{\"containers\":[]}}"),
        json("{\"spec\":{\"containers\":[{\"image\":\"x\"}]}}"),
        PatchFixtures.kubeSchema("io.k8s.api.core.v1.Pod")));
    assertThat(e.status().toJson()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"map: map[image:x] does not"
        + " contain declared merge key: name\",\"code\":500}");
  }

  @Test
  void goSliceCapacitiesGrowLikeAppend() {
    assertThat(List.of(0, 1, 2, 3, 4, 5, 9, 256, 257).stream()
        .map(StrategicMerger::goCapacity))
        .containsExactly(0, 1, 2, 4, 4, 8, 16, 256, 512);
  }

  /** {@code map} with the value at {@code path} replaced; a null value removes the key. */
  private static MapValue set(MapValue map, List<String> path, Value value) {
    String key = path.get(0);
    if (path.size() == 1) {
      return value instanceof NullValue ? map.without(key) : map.with(key, value);
    }
    Value child = map.getOrNull(key);
    MapValue next = child instanceof MapValue m ? m : MapValue.empty();
    return map.with(key, set(next, path.subList(1, path.size()), value));
  }
}
