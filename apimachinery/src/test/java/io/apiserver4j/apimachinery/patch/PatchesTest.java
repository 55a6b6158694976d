/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static io.apiserver4j.apimachinery.patch.PatchFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PatchesTest {

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(strings = {"", " ", "{", "{\"a\":1} x", "nul", "[1,]", "{\"a\":1,\"a\":2}"})
  void bodyMustBeOneJsonValue(String body) {
    assertThatThrownBy(() -> Patches.parseBody(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(BadRequestException.class,
            e -> assertThat(e.code()).isEqualTo(400))
        .hasMessage("invalid JSON patch");
  }

  @Test
  void readsBodies() {
    assertThat(Patches.parseBody(" [ {\"op\":\"remove\",\"path\":\"/a\"} ] "
        .getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(json("[{\"op\":\"remove\",\"path\":\"/a\"}]"));
    assertThat(Patches.parseBody("null".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo(Value.nullValue());
  }

  @Test
  void dispatchesByType() {
    Value pod = json("{\"metadata\":{\"finalizers\":[\"a\"]},\"spec\":{\"x\":1}}");
    PatchSchema schema = PatchFixtures.kubeSchema("io.k8s.api.core.v1.Pod");
    assertThat(Patches.apply(PatchType.JSON_PATCH, pod,
        json("[{\"op\":\"remove\",\"path\":\"/spec\"}]"), schema))
        .isEqualTo(json("{\"metadata\":{\"finalizers\":[\"a\"]}}"));
    assertThat(Patches.apply(PatchType.MERGE_PATCH, pod,
        json("{\"metadata\":{\"finalizers\":[\"b\"]}}"), schema))
        .isEqualTo(json("{\"metadata\":{\"finalizers\":[\"b\"]},\"spec\":{\"x\":1}}"));
    assertThat(Patches.apply(PatchType.STRATEGIC_MERGE_PATCH, pod,
        json("{\"metadata\":{\"finalizers\":[\"b\"]}}"), schema))
        .isEqualTo(json("{\"metadata\":{\"finalizers\":[\"b\",\"a\"]},\"spec\":{\"x\":1}}"));
  }

  @Test
  void applyTypesAreNotPatches() {
    assertThatThrownBy(() -> Patches.apply(PatchType.APPLY_YAML, json("{}"), json("{}"),
        PatchSchema.unknown()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
