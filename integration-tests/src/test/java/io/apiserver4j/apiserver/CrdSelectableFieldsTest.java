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
import io.apiserver4j.apiextensions.CrdValidator;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.fields.FieldSelector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * selectableFields of custom resources: kube's CRD checks (apiextensions validation_test.go
 * TestSelectableFields, messages of ValidateCustomResourceSelectableFields and ValidFieldPath)
 * and field selectors on lists (the custom resource strategy's GetAttrs, the converter's
 * "field label not supported").
 */
class CrdSelectableFieldsTest {
  private final Fixtures f = new Fixtures();

  private static MapValue crd(String scope, String versions) {
    return yaml("""
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: plural.group.com}
        spec:
          group: group.com
          scope: %s
          names: {plural: plural, singular: singular, kind: Plural, listKind: PluralList}
          versions:
        %s""".formatted(scope, versions.indent(2)));
  }

  private static List<String> errors(MapValue crd) {
    return CrdValidator.validateDefinition(crd).stream().map(FieldError::toString).toList();
  }

  @Test
  void pathsMustReferToFieldsOfTheSchema() {
    MapValue crd = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: string}}}}
          selectableFields: [{jsonPath: .foo}, {jsonPath: .xyz}]
        - name: version2
          served: true
          storage: false
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: integer}}}}
          selectableFields: [{jsonPath: .xyz}, {jsonPath: .foo}, {jsonPath: .abc}]
        """);
    assertThat(errors(crd)).containsExactly(
        "spec.versions[0].selectableFields[1].jsonPath: Invalid value: \".xyz\": is an invalid"
            + " path: does not refer to a valid field",
        "spec.versions[1].selectableFields[0].jsonPath: Invalid value: \".xyz\": is an invalid"
            + " path: does not refer to a valid field",
        "spec.versions[1].selectableFields[2].jsonPath: Invalid value: \".abc\": is an invalid"
            + " path: does not refer to a valid field");
  }

  @Test
  void fieldsAllVersionsShareAreCheckedOnTheSpec() {
    // kube's v1 -> internal conversion sets identical per-version fields once on the spec
    MapValue same = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: string}}}}
          selectableFields: [{jsonPath: .foo}, {jsonPath: .xyz}]
        - name: version2
          served: true
          storage: false
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: string}}}}
          selectableFields: [{jsonPath: .foo}, {jsonPath: .xyz}]
        """);
    assertThat(errors(same)).containsExactly("spec.selectableFields[1].jsonPath: Invalid value:"
        + " \".xyz\": is an invalid path: does not refer to a valid field");
    // with different schemas the spec has none to check them against
    MapValue differentSchemas = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: string}}}}
          selectableFields: [{jsonPath: .foo}]
        - name: version2
          served: true
          storage: false
          schema: {openAPIV3Schema: {type: object, properties: {foo: {type: integer}}}}
          selectableFields: [{jsonPath: .foo}]
        """);
    assertThat(errors(differentSchemas)).containsExactly("spec.selectableFields: Invalid value:"
        + " \"\": may only be set when validations.schema is included");
  }

  @Test
  void fieldsMustBeStringsBooleansOrIntegers() {
    MapValue crd = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties: {foo: {type: string}, obj: {type: object}}
          selectableFields: [{jsonPath: .foo}, {jsonPath: .obj}]
        - name: version2
          served: true
          storage: false
          schema:
            openAPIV3Schema:
              type: object
              properties: {foo: {type: integer}, obj: {type: object}, bool: {type: boolean}}
          selectableFields: [{jsonPath: .obj}, {jsonPath: .foo}, {jsonPath: .bool}]
        """);
    assertThat(errors(crd)).containsExactly(
        "spec.versions[0].selectableFields[1].jsonPath: Invalid value: \".obj\": must point to a"
            + " field of type string, boolean or integer. Enum string fields and strings with"
            + " formats are allowed.",
        "spec.versions[1].selectableFields[0].jsonPath: Invalid value: \".obj\": must point to a"
            + " field of type string, boolean or integer. Enum string fields and strings with"
            + " formats are allowed.");
  }

  @Test
  void duplicatesMetadataArraysAndTooManyFields() {
    StringBuilder props = new StringBuilder();
    StringBuilder fields = new StringBuilder();
    for (int i = 1; i <= 9; i++) {
      props.append("a").append(i).append(": {type: string}, ");
      fields.append("{jsonPath: .a").append(i).append("}, ");
    }
    MapValue crd = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties: {%s metadata: {type: object, properties: {name: {type: string}}},
                list: {type: array, items: {type: string}}}
          selectableFields: [%s {jsonPath: .a1}, {jsonPath: .metadata.name},
            {jsonPath: ".list[0]"}, {jsonPath: a1}, {jsonPath: .}, {jsonPath: ""}]
        """.formatted(props, fields));
    // a single version's fields are the spec's in kube's internal form, and reported there
    String at = "spec.selectableFields";
    assertThat(errors(crd)).containsExactly(
        at + "[9].jsonPath: Duplicate value: \".a1\"",
        at + "[10].jsonPath: Invalid value: \".metadata.name\": must not point to fields in"
            + " metadata",
        at + "[11].jsonPath: Invalid value: \".list[0]\": is an invalid path: array notation is"
            + " not allowed",
        at + "[12].jsonPath: Invalid value: \"a1\": is an invalid path: expected [ or . but"
            + " got: a1",
        at + "[13].jsonPath: Invalid value: \".\": is an invalid path: unexpected end of JSON"
            + " path",
        at + "[14].jsonPath: Required value",
        at + ": Too many: 10: must have at most 8 items");
  }

  @Test
  void selectableFieldsNeedASchema() {
    MapValue crd = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          selectableFields: [{jsonPath: .foo}]
        """);
    assertThat(errors(crd)).containsExactly("spec.selectableFields: Invalid value: \"\": may"
        + " only be set when validations.schema is included");
    MapValue two = crd("Namespaced", """
        - name: version
          served: true
          storage: true
          selectableFields: [{jsonPath: .foo}]
        - name: version2
          served: true
          storage: false
        """);
    assertThat(errors(two)).containsExactly("spec.versions[0].selectableFields: Invalid value:"
        + " \"\": may only be set when `version.schema.openAPIV3Schema` is not included");
  }

  private static final GroupVersionResource PLURALS =
      new GroupVersionResource("group.com", "version", "plural");

  private List<String> names(String ns, String selector) {
    ApiResponse r = f.server.handle(req(Verb.LIST, PLURALS, ns, "")
        .fieldSelector(FieldSelector.parse(selector)).build());
    List<String> out = new ArrayList<>();
    for (Value item : ((ListValue) r.orThrow().getOrNull("items")).items()) {
      out.add(str(((MapValue) item).getOrNull("metadata"), "name"));
    }
    return out;
  }

  private void install(String scope) {
    MapValue crd = crd(scope, """
        - name: version
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties: {color: {type: string}, size: {type: integer},
                    enabled: {type: boolean}, other: {type: string}}
          selectableFields: [{jsonPath: .spec.color}, {jsonPath: .spec.size},
            {jsonPath: .spec.enabled}]
        """);
    ApiResponse created = f.create(CRDS, "", crd, "kubectl");
    assertThat(created.code()).as("%s", created.body()).isEqualTo(201);
    String ns = scope.equals("Namespaced") ? "default" : "";
    String[][] objects = {{"a", "blue", "1", "true"}, {"b", "red", "2", "false"},
        {"c", "blue", "2", "false"}};
    for (String[] o : objects) {
      f.create(PLURALS, ns, yaml("""
          apiVersion: group.com/version
          kind: Plural
          metadata: {name: %s}
          spec: {color: %s, size: %s, enabled: %s}
          """.formatted((Object[]) o)), "test").orThrow();
    }
    f.create(PLURALS, ns, yaml("""
        apiVersion: group.com/version
        kind: Plural
        metadata: {name: d}
        spec: {}
        """), "test").orThrow();
  }

  @Test
  void listsAreFilteredBySelectableFields() {
    install("Namespaced");

    assertThat(names("default", "spec.color=blue")).containsExactly("a", "c");
    assertThat(names("default", "spec.color!=blue")).containsExactly("b", "d");
    assertThat(names("default", "spec.size=2,spec.enabled=false")).containsExactly("b", "c");
    // an absent field is the empty value
    assertThat(names("default", "spec.color=")).containsExactly("d");
    assertThat(names("default", "metadata.namespace=default,metadata.name=a"))
        .containsExactly("a");
  }

  @Test
  void otherFieldsAreNotSupported() {
    install("Cluster");

    assertThat(names("", "spec.enabled=true")).containsExactly("a");
    for (String field : List.of("spec.other", "metadata.namespace")) {
      ApiResponse r = f.server.handle(req(Verb.LIST, PLURALS, "", "")
          .fieldSelector(FieldSelector.parse(field + "=x")).build());
      assertThat(r.code()).isEqualTo(400);
      assertThat(str(r.body(), "message")).isEqualTo("field label not supported: " + field);
    }
  }
}
