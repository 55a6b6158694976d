/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.req;
import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Json;
import io.apiserver4j.apiextensions.CrdValidator;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.Value;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Custom resources validated and defaulted by their CRD's schema through the server, as kube
 * does (issue 13's example), and the same checks without a server through {@link CrdValidator}.
 */
class CrdValidationTest {
  static final String CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.example.com}
      spec:
        group: example.com
        names: {plural: gadgets, singular: gadget, kind: Gadget}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          subresources:
            status: {}
            scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  required: [size]
                  x-kubernetes-validations:
                  - rule: self.size <= self.max
                  properties:
                    size: {type: integer, minimum: 1}
                    replicas: {type: integer, maximum: 5}
                    color: {type: string, enum: [red, blue]}
                    max: {type: integer, default: 10}
                    config: {type: object, x-kubernetes-preserve-unknown-fields: true}
                    template:
                      type: object
                      x-kubernetes-embedded-resource: true
                      properties:
                        spec: {type: object, properties: {image: {type: string}}}
                status:
                  type: object
                  properties:
                    phase: {type: string, enum: [Pending, Ready]}
                    replicas: {type: integer}
      """;

  static final GroupVersionResource GADGETS =
      new GroupVersionResource("example.com", "v1", "gadgets");

  private final Fixtures f = new Fixtures();

  private void install() {
    assertThat(f.create(CRDS, "", yaml(CRD), "kubectl").code()).isEqualTo(201);
  }

  private static MapValue gadget(String spec) {
    return (MapValue) yaml("apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g1}\n"
        + "spec: " + spec + "\n");
  }

  private static List<String> causes(ApiResponse r) {
    return r.failure().orElseThrow().causes().stream()
        .map(c -> c.field() + ": " + c.message()).toList();
  }

  /**
   * kube prunes a null only where a schema says the field is not nullable and has no default
   * (apiextensions-apiserver {@code defaulting.PruneNonNullableNullsWithoutDefaults}, which
   * leaves fields without a schema alone): a null under {@code x-kubernetes-preserve-unknown-
   * fields}, as Kyverno's policies write {@code X(cpu): null}, is stored and read back.
   */
  @Test
  void keepsNullsWhereNoSchemaSaysNotNullable() {
    install();
    ApiResponse r = f.create(GADGETS, "default",
        gadget("{size: 1, config: {rules: [{x: null, y: {z: null}}], w: null}}"), "kubectl");
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
    Value expected = yaml("{rules: [{x: null, y: {z: null}}], w: null}");
    assertThat(Nested.getOrNull(r.body(), "spec", "config")).isEqualTo(expected);
    assertThat(Nested.getOrNull(f.get(GADGETS, "default", "g1").body(), "spec", "config"))
        .isEqualTo(expected);
  }

  @Test
  void rejectsOutOfRangeAndUnsupportedValues() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{size: 20, color: green}"), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).containsExactlyInAnyOrder(
        "spec.color: Unsupported value: \"green\": supported values: \"red\", \"blue\"",
        "spec: Invalid value: failed rule: self.size <= self.max");
    assertThat(r.failure().orElseThrow().causes()).extracting(StatusCause::type)
        .contains("FieldValueNotSupported", "FieldValueInvalid");
  }

  @Test
  void rejectsAFractionForAnInteger() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{size: 3.5}"), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).contains(
        "spec.size: Invalid value: \"number\": spec.size in body must be of type integer: "
            + "\"number\"");
  }

  @Test
  void rejectsAStringForAnIntegerAsInvalidNotAsBadRequest() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{size: \"three\"}"), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).contains(
        "spec.size: Invalid value: \"string\": spec.size in body must be of type integer: "
            + "\"string\"");
  }

  @Test
  void rejectsAMissingRequiredField() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{color: red}"), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).contains("spec.size: Required value");
    assertThat(r.failure().orElseThrow().message())
        .startsWith("Gadget.example.com \"g1\" is invalid: ");
  }

  @Test
  void rejectsBelowMinimum() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{size: 0}"), "kubectl");
    assertThat(causes(r)).containsExactly(
        "spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1");
  }

  @Test
  void defaultsOnCreateAndUpdateAndApply() {
    install();
    ApiResponse created = f.create(GADGETS, "default", gadget("{size: 3}"), "kubectl");
    assertThat(created.code()).isEqualTo(201);
    assertThat(at(created.body(), "spec", "max")).isEqualTo(Value.of(10L));

    ApiResponse patched = f.patch(GADGETS, "default", "g1", PatchType.MERGE_PATCH,
        "{\"spec\":{\"max\":null}}", "kubectl");
    assertThat(patched.code()).isEqualTo(200);
    assertThat(at(patched.body(), "spec", "max")).isEqualTo(Value.of(10L));

    ApiResponse applied = f.apply(GADGETS, "default", "g2", "me",
        "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g2}\nspec: {size: 2}\n");
    assertThat(applied.code()).isEqualTo(201);
    assertThat(at(applied.body(), "spec", "max")).isEqualTo(Value.of(10L));

    ApiResponse tooBig = f.patch(GADGETS, "default", "g1", PatchType.MERGE_PATCH,
        "{\"spec\":{\"size\":11}}", "kubectl");
    assertThat(tooBig.code()).isEqualTo(422);
    assertThat(causes(tooBig))
        .containsExactly("spec: Invalid value: failed rule: self.size <= self.max");
  }

  @Test
  void prunesUnknownFieldsButKeepsPreservedOnes() {
    install();
    ApiResponse r = f.create(GADGETS, "default", gadget("{size: 3, extra: 1, config: {any: "
        + "{thing: 1}}, template: {apiVersion: v1, kind: Pod, metadata: {name: p, bogus: 1}, "
        + "spec: {image: x, other: 2}}}"), "kubectl");
    assertThat(r.code()).isEqualTo(201);
    assertThat(at(r.body(), "spec", "extra")).isNull();
    assertThat(at(r.body(), "spec", "config", "any", "thing")).isEqualTo(Value.of(1L));
    assertThat(at(r.body(), "spec", "template", "spec", "other")).isNull();
    assertThat(at(r.body(), "spec", "template", "metadata", "bogus")).isNull();
    assertThat(at(r.body(), "spec", "template", "kind")).isEqualTo(Value.of("Pod"));
    assertThat(r.warnings()).contains("unknown field \"spec.extra\"",
        "unknown field \"spec.template.spec.other\"");
  }

  @Test
  void validatesEmbeddedResources() {
    install();
    ApiResponse r = f.create(GADGETS, "default",
        gadget("{size: 3, template: {metadata: {name: p}}}"), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).containsExactlyInAnyOrder("spec.template.apiVersion: Required value",
        "spec.template.kind: Required value");
  }

  @Test
  void validatesStatusWritesByTheStatusSchema() {
    install();
    assertThat(f.create(GADGETS, "default", gadget("{size: 3}"), "kubectl").code())
        .isEqualTo(201);
    ApiResponse r = f.server.handle(Fixtures.req(ApiRequest.Verb.PATCH, GADGETS, "default", "g1")
        .subresource("status").fieldManager("ctrl")
        .patch(PatchType.MERGE_PATCH, "{\"status\":{\"phase\":\"Gone\"}}").build());
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).containsExactly(
        "status.phase: Unsupported value: \"Gone\": supported values: \"Pending\", \"Ready\"");
  }

  @Test
  void validatesScaleWritesByTheSchema() {
    install();
    assertThat(f.create(GADGETS, "default", gadget("{size: 3, replicas: 1}"), "kubectl").code())
        .isEqualTo(201);
    ApiResponse r = f.server.handle(Fixtures.req(ApiRequest.Verb.PATCH, GADGETS, "default", "g1")
        .subresource("scale").fieldManager("hpa")
        .patch(PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":10}}").build());
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).contains("spec.replicas: Invalid value: 10: spec.replicas in body"
        + " should be less than or equal to 5");
  }

  @Test
  void rejectsACrdWhoseRulesDoNotCompile() {
    String bad = CRD.replace("rule: self.size <= self.max", "rule: self.size <=")
        .replace("gadgets.example.com", "gizmos.example.com").replace("plural: gadgets", "plural: gizmos");
    ApiResponse r = f.create(CRDS, "", yaml(bad), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).anySatisfy(c -> assertThat(c).startsWith(
        "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]"
            + ".rule: Invalid value: \"self.size <=\": compilation failed: "));
  }

  @Test
  void rejectsANonStructuralSchema() {
    String bad = CRD.replace("color: {type: string, enum: [red, blue]}", "color: {enum: [red]}")
        .replace("gadgets.example.com", "gizmos.example.com").replace("plural: gadgets", "plural: gizmos");
    ApiResponse r = f.create(CRDS, "", yaml(bad), "kubectl");
    assertThat(r.code()).isEqualTo(422);
    assertThat(causes(r)).contains("spec.validation.openAPIV3Schema.properties[spec]"
        + ".properties[color].type: Required value: must not be empty for specified object fields");
  }

  @Test
  void ratchetedRulesAreWarningsAndChangedValuesErrors() {
    MapValue crd = (MapValue) yaml(CRD);
    CrdValidator v = CrdValidator.of(crd, "v1");
    MapValue old = gadget("{size: 20, max: 10}");
    MapValue relabelled = (MapValue) yaml("apiVersion: example.com/v1\nkind: Gadget\n"
        + "metadata: {name: g1, labels: {a: b}}\nspec: {size: 20, max: 10}\n");
    CrdValidator.Result unchanged = v.check(relabelled, java.util.Optional.of(old));
    assertThat(unchanged.errors()).isEmpty();
    assertThat(unchanged.warnings())
        .containsExactly("spec: Invalid value: failed rule: self.size <= self.max");
    CrdValidator.Result changed = v.check(gadget("{size: 21, max: 10}"),
        java.util.Optional.of(old));
    assertThat(changed.errors()).extracting(FieldError::toString)
        .containsExactly("spec: Invalid value: failed rule: self.size <= self.max");
  }

  @Test
  void validatesWithoutAServer() {
    MapValue crd = (MapValue) yaml(CRD);
    MapValue object = (MapValue) yaml("apiVersion: example.com/v1\nkind: Gadget\n"
        + "metadata: {name: g1, namespace: default}\nspec: {size: 20, color: green}\n");
    List<FieldError> errs = CrdValidator.validate(crd, object);
    assertThat(errs).extracting(FieldError::toString).containsExactlyInAnyOrder(
        "spec.color: Unsupported value: \"green\": supported values: \"red\", \"blue\"",
        "spec: Invalid value: failed rule: self.size <= self.max");
    CrdValidator v = CrdValidator.of(crd, "v1");
    MapValue defaulted = v.applyDefaults(gadget("{size: 3}"));
    assertThat(at(defaulted, "spec", "max")).isEqualTo(Value.of(10L));
    assertThat(v.validateSchema(defaulted, java.util.Optional.empty())).isEmpty();
    MapValue old = v.applyDefaults(gadget("{size: 3}"));
    assertThat(CrdValidator.validate(crd, gadget("{size: 11}"), old)).extracting(
        FieldError::toString).contains("spec: Invalid value: failed rule: self.size <= self.max");
    CrdValidator.PruneResult pruned = v.prune(gadget("{size: 3, extra: 1}"));
    assertThat(pruned.unknownFields()).containsExactly("spec.extra");
    assertThat(at(pruned.object(), "spec", "extra")).isNull();
  }

  @Test
  void aRuleAddedLaterRatchetsOnUnchangedFieldsWithAWarning() {
    install();
    assertThat(f.create(GADGETS, "default", gadget("{size: 5, color: red}"), "kubectl").code())
        .isEqualTo(201);
    MapValue crd = f.get(CRDS, "", "gadgets.example.com").orThrow();
    MapValue tightened = (MapValue) yaml(Json.write(crd).replace(
        "\"size\":{\"type\":\"integer\",\"minimum\":1}",
        "\"size\":{\"type\":\"integer\",\"minimum\":1,\"x-kubernetes-validations\":"
            + "[{\"rule\":\"self <= 3\"}]}"));
    assertThat(tightened).isNotEqualTo(crd);
    f.server.handle(req(Verb.UPDATE, CRDS, "", "gadgets.example.com").body(tightened).build())
        .orThrow();

    MapValue g1 = f.get(GADGETS, "default", "g1").orThrow();
    ApiResponse unchangedSize = f.server.handle(req(Verb.UPDATE, GADGETS, "default", "g1")
        .body(Nested.set(g1, Value.of("blue"), "spec", "color")).build());
    ApiResponse changedSize = f.server.handle(req(Verb.UPDATE, GADGETS, "default", "g1")
        .body(Nested.set(unchangedSize.orThrow(), Value.of(4L), "spec", "size")).build());

    // kube ratchets CEL rules of unchanged values: the write passes, the failure is a warning
    assertThat(unchangedSize.code()).isEqualTo(200);
    assertThat(unchangedSize.warnings()).anyMatch(w -> w.contains("failed rule: self <= 3"));
    assertThat(changedSize.code()).isEqualTo(422);
  }
}
