/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's schema checks of a CRD (see crd-definition-cases.yaml). */
class CrdDefinitionValidationTest {

  static Stream<Arguments> cases() {
    return CaseFiles.named("crd-definition-cases.yaml");
  }


  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsKubesErrors(String name, MapValue c) {
    MapValue version = MapValue.ofEntries("name", Value.of("v1"), "served", Value.of(true),
        "storage", Value.of(true), "schema",
        MapValue.ofEntries("openAPIV3Schema", c.getOrNull("schema")));
    MapValue crd = MapValue.ofEntries("spec", MapValue.ofEntries("versions",
        ListValue.of(List.of(version))));
    List<String> expected = new ArrayList<>();
    for (Value e : ((ListValue) c.getOrNull("errors")).items()) {
      expected.add(((StringValue) e).value());
    }
    assertThat(CrdValidator.validateDefinition(crd).stream().map(FieldError::toString).toList())
        .containsExactlyInAnyOrderElementsOf(expected);
  }

  private static MapValue twoVersions(String schema0, String schema1) {
    return (MapValue) Yaml.read("""
        spec:
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: %s}}
          - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: %s}}
        """.formatted(schema0, schema1));
  }

  @org.junit.jupiter.api.Test
  void schemasOfVersionsAreReportedWhereKubesInternalFormHasThem() {
    // apiextensions v1 -> internal conversion: identical schemas become spec.validation
    String bad = "{type: object, properties: {a: {type: array}}}";
    assertThat(CrdValidator.validateDefinition(twoVersions(bad, bad)).stream()
        .map(FieldError::toString).toList()).containsExactly(
        "spec.validation.openAPIV3Schema.properties[a].items: Required value: must be specified");
    assertThat(CrdValidator.validateDefinition(twoVersions("{type: object}", bad)).stream()
        .map(FieldError::toString).toList()).containsExactly(
        "spec.versions[1].schema.openAPIV3Schema.properties[a].items: Required value: must be"
            + " specified");
  }

  private static MapValue columns(String columns0, String columns1) {
    return (MapValue) Yaml.read("""
        spec:
          versions:
          - {name: v1, served: true, storage: true, additionalPrinterColumns: %s}
          - {name: v2, served: true, storage: false, additionalPrinterColumns: %s}
        """.formatted(columns0, columns1));
  }

  @org.junit.jupiter.api.Test
  void printerColumnsAreCheckedAsKube() {
    // kube's ValidateCustomResourceColumnDefinition, on the spec when all versions share them
    String bad = "[{type: time, format: uuid, jsonPath: spec.x}, {name: b}]";
    assertThat(CrdValidator.validateDefinition(columns(bad, bad)).stream()
        .map(FieldError::toString).toList()).containsExactly(
        "spec.additionalPrinterColumns[0].name: Required value",
        "spec.additionalPrinterColumns[0].type: Invalid value: \"time\": must be one of"
            + " boolean,date,integer,number,string",
        "spec.additionalPrinterColumns[0].format: Invalid value: \"uuid\": must be one of"
            + " byte,date,date-time,double,float,int32,int64,password",
        "spec.additionalPrinterColumns[0].JSONPath: Invalid value: \"spec.x\": must be a simple"
            + " json path starting with .",
        "spec.additionalPrinterColumns[1].type: Required value: must be one of"
            + " boolean,date,integer,number,string",
        "spec.additionalPrinterColumns[1].JSONPath: Required value");
    assertThat(CrdValidator.validateDefinition(columns(
        "[{name: a, type: integer, format: int32, jsonPath: .spec.a}]",
        "[{name: a, type: date, jsonPath: .metadata.creationTimestamp, priority: 1}, {name: b,"
            + " type: string, jsonPath: .}]")).stream()).isEmpty();
    assertThat(CrdValidator.validateDefinition(columns("[]", "[{name: a, jsonPath: .a}]"))
        .stream().map(FieldError::toString).toList()).containsExactly(
        "spec.versions[1].additionalPrinterColumns[0].type: Required value: must be one of"
            + " boolean,date,integer,number,string");
  }

  @org.junit.jupiter.api.Test
  void istiosServiceEntriesCrdIsAccepted() throws java.io.IOException {
    // Istio's released serviceentries.networking.istio.io (read from ../shared/realworld, never
    // copied), which every Istio cluster installs: kube's cost estimator accepts its rules
    java.nio.file.Path file = java.nio.file.Path.of(
        System.getProperty("apiserver4j.shared", "../shared"), "realworld", "corpus", "istio",
        "manifests", "charts", "base", "files", "crd-all.gen.yaml");
    MapValue crd = Yaml.readAll(java.nio.file.Files.readString(file)).stream()
        .filter(d -> d instanceof MapValue m && m.getOrNull("metadata") instanceof MapValue meta
            && Value.of("serviceentries.networking.istio.io").equals(meta.getOrNull("name")))
        .map(MapValue.class::cast).findFirst().orElseThrow();
    assertThat(CrdValidator.validateDefinition(crd).stream().map(FieldError::toString))
        .isEmpty();
  }

  @org.junit.jupiter.api.Test
  void typeOfAFieldIsCheap() {
    // issue 23 item 10: cel-go's checker costs type() and a comparison of types at one each
    String schema = "{type: object, properties: {val1: {type: integer}, val2: {type: array,"
        + " items: {type: string}}}, x-kubernetes-validations: [{rule: 'type(self.val1) == int'},"
        + " {rule: 'type(self.val2) == list'}, {rule: 'string(self.val1) == \"1\"'}]}";
    MapValue crd = (MapValue) Yaml.read("""
        spec:
          versions:
          - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: %s}}
        """.formatted(schema));
    assertThat(CrdValidator.validateDefinition(crd).stream().map(FieldError::toString))
        .isEmpty();
  }
}
