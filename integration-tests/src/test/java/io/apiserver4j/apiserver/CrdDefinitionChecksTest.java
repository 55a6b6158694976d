/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kube's checks of a CRD's own definition through the server (issue 23 item 14): a schema
 * outside kube's OpenAPI v3 subset is refused with 422 and nothing is stored or served; unknown
 * fields of the CRD object follow {@code fieldValidation}.
 */
class CrdDefinitionChecksTest {
  private static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: typos.example.com}
      spec:
        group: example.com
        names: {plural: typos, singular: typo, kind: Typo}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    a: {type: %s}
      """;

  private static final GroupVersionResource TYPOS =
      new GroupVersionResource("example.com", "v1", "typos");

  private final Fixtures f = new Fixtures();

  private static List<String> causes(ApiResponse r) {
    return r.failure().orElseThrow().causes().stream()
        .map(c -> c.field() + ": " + c.message()).toList();
  }

  @Test
  void aMisspeltTypeIsRefusedWithKubesMessageAndNothingIsServed() {
    ApiResponse r = f.create(CRDS, "", yaml(CRD.formatted("strign")), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    // kube's specStandardValidatorV3: field.NotSupported over openapiV3Types
    assertThat(causes(r)).containsExactly(
        "spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Unsupported value:"
            + " \"strign\": supported values: \"array\", \"boolean\", \"integer\", \"number\","
            + " \"object\", \"string\"");
    assertThat(str(r.body(), "reason")).isEqualTo("Invalid");
    assertThat(f.get(CRDS, "", "typos.example.com").code()).isEqualTo(404);
    assertThat(f.server.registry().find(TYPOS)).isEmpty();
  }

  @Test
  void forbiddenJsonSchemaKeywordsAreRefused() {
    ApiResponse r = f.create(CRDS, "", yaml(CRD.formatted("string, $ref: \"#/x\""
        + ", patternProperties: {\"^a\": {type: string}}")), "kubectl");

    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).containsExactlyInAnyOrder(
        "spec.validation.openAPIV3Schema.properties[spec].properties[a].$ref: Forbidden: $ref is"
            + " not supported",
        "spec.validation.openAPIV3Schema.properties[spec].properties[a].patternProperties:"
            + " Forbidden: patternProperties is not supported");
  }

  @Test
  void aValidTypeIsServed() {
    assertThat(f.create(CRDS, "", yaml(CRD.formatted("string")), "kubectl").code())
        .isEqualTo(201);
    assertThat(f.server.registry().find(TYPOS)).isPresent();
  }

  @Test
  void unknownFieldsOfTheCrdFollowFieldValidation() {
    MapValue crd = yaml(CRD.formatted("string"));
    MapValue withUnknown = crd.with("spec", ((MapValue) crd.getOrNull("spec"))
        .with("bogus", io.apiserver4j.core.Value.of(true)));

    ApiResponse strict = f.server.handle(req(Verb.CREATE, CRDS, "", "").body(withUnknown)
        .fieldValidation(FieldValidation.STRICT).build());
    assertThat(strict.code()).isEqualTo(400);
    assertThat(str(strict.body(), "message")).isEqualTo("CustomResourceDefinition in version"
        + " \"v1\" cannot be handled as a CustomResourceDefinition: strict decoding error:"
        + " unknown field \"spec.bogus\"");
    assertThat(f.get(CRDS, "", "typos.example.com").code()).isEqualTo(404);

    ApiResponse warn = f.server.handle(req(Verb.CREATE, CRDS, "", "").body(withUnknown)
        .fieldValidation(FieldValidation.WARN).build());
    assertThat(warn.code()).isEqualTo(201);
    assertThat(warn.warnings()).containsExactly("unknown field \"spec.bogus\"");
  }
}
