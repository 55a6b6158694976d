/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apimachinery.patch.PatchType.Cbor;
import io.apiserver4j.core.errors.UnsupportedMediaTypeException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PatchTypeTest {

  @Test
  void builtInResourcesAcceptEveryPatchFormatInKubesOrder() {
    assertThat(PatchType.accepted(ResourceOrigin.BUILT_IN, Cbor.DISABLED)).containsExactly(
        PatchType.JSON_PATCH, PatchType.MERGE_PATCH, PatchType.STRATEGIC_MERGE_PATCH,
        PatchType.APPLY_YAML);
    assertThat(PatchType.accepted(ResourceOrigin.BUILT_IN, Cbor.ENABLED))
        .endsWith(PatchType.APPLY_YAML, PatchType.APPLY_CBOR);
  }

  @Test
  void customResourcesHaveNoStrategicMergePatch() {
    List<PatchType> accepted = PatchType.accepted(ResourceOrigin.CUSTOM_RESOURCE, Cbor.DISABLED);
    assertThat(accepted).containsExactly(PatchType.JSON_PATCH, PatchType.MERGE_PATCH,
        PatchType.APPLY_YAML);
    assertThatThrownBy(() -> PatchType.fromContentType(
        "application/strategic-merge-patch+json", accepted))
        .isInstanceOfSatisfying(UnsupportedMediaTypeException.class, e -> {
          assertThat(e.code()).isEqualTo(415);
          assertThat(e.status().reason().wireName()).isEqualTo("UnsupportedMediaType");
        })
        .hasMessage("the body of the request was in an unknown format - accepted media types"
            + " include: application/json-patch+json, application/merge-patch+json,"
            + " application/apply-patch+yaml");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "application/json-patch+json                       | JSON_PATCH",
      "application/merge-patch+json; charset=utf-8       | MERGE_PATCH",
      "application/strategic-merge-patch+json;foo        | STRATEGIC_MERGE_PATCH",
      "application/apply-patch+yaml                      | APPLY_YAML",
  })
  void readsTheContentTypeAsKubeDoes(String contentType, PatchType expected) {
    assertThat(PatchType.fromContentType(contentType,
        PatchType.accepted(ResourceOrigin.BUILT_IN, Cbor.DISABLED))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @CsvSource(delimiter = '|', ignoreLeadingAndTrailingWhitespace = false, value = {
      "application/json",
      "Application/json-patch+json",
      "application/json-patch+json ; charset=utf-8",
      ";application/json-patch+json",
      "application/apply-patch+cbor",
  })
  void rejectsOtherContentTypes(String contentType) {
    assertThatThrownBy(() -> PatchType.fromContentType(contentType,
        PatchType.accepted(ResourceOrigin.BUILT_IN, Cbor.DISABLED)))
        .isInstanceOf(UnsupportedMediaTypeException.class)
        .hasMessage("the body of the request was in an unknown format - accepted media types"
            + " include: application/json-patch+json, application/merge-patch+json,"
            + " application/strategic-merge-patch+json, application/apply-patch+yaml");
  }

  @Test
  void namesMediaTypes() {
    assertThat(PatchType.forMediaType("application/apply-patch+cbor"))
        .contains(PatchType.APPLY_CBOR);
    assertThat(PatchType.forMediaType("application/json")).isEmpty();
    assertThat(PatchType.APPLY_YAML.isApply()).isTrue();
    assertThat(PatchType.MERGE_PATCH.isApply()).isFalse();
    assertThat(PatchType.STRATEGIC_MERGE_PATCH.mediaType())
        .isEqualTo("application/strategic-merge-patch+json");
  }
}
