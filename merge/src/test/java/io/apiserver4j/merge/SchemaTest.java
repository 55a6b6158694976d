/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Value;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SchemaTest {

  @Test
  void loadsTheKubernetesBenchmarkSchema() {
    Schema s = Schema.fromSmdYaml(SharedFiles.read("bench/k8s-schema.yaml"));
    assertThat(s.types()).hasSizeGreaterThan(500);
    TypeDef pod = s.findNamedType("io.k8s.api.core.v1.Pod").orElseThrow();
    MapType podMap = pod.atom().map().orElseThrow();
    assertThat(podMap.findField("spec").orElseThrow().type())
        .isEqualTo(TypeRef.named("io.k8s.api.core.v1.PodSpec"));
    ListType containers = s.resolve(TypeRef.named("io.k8s.api.core.v1.PodSpec")).orElseThrow()
        .map().orElseThrow().findField("containers").orElseThrow().type().inlined().list().orElseThrow();
    assertThat(containers.elementRelationship()).isEqualTo(ElementRelationship.ASSOCIATIVE);
    assertThat(containers.keys()).containsExactly("name");
  }

  @Test
  void roundTripsThroughSmdValue() {
    Schema s = Schema.fromSmdYaml(SharedFiles.read("bench/k8s-schema.yaml"));
    assertThat(Schema.fromSmdValue(s.toSmdValue())).isEqualTo(s);
    Schema a = Schema.fromSmdYaml(SharedFiles.read("bench/apiresourceimport.yaml"));
    assertThat(Schema.fromSmdValue(a.toSmdValue())).isEqualTo(a);
  }

  @Test
  void appliesElementRelationshipOverridesWhenResolving() {
    Schema s = Schema.fromSmdYaml("""
        types:
        - name: m
          map:
            elementType:
              scalar: string
        - name: l
          list:
            elementType:
              scalar: string
            elementRelationship: associative
        """);
    assertThat(s.resolve(TypeRef.named("m").withElementRelationship(ElementRelationship.ATOMIC))
            .orElseThrow().map().orElseThrow().elementRelationship())
        .isEqualTo(ElementRelationship.ATOMIC);
    assertThat(s.resolve(TypeRef.named("l").withElementRelationship(ElementRelationship.ATOMIC))
            .orElseThrow().list().orElseThrow().elementRelationship())
        .isEqualTo(ElementRelationship.ATOMIC);
    assertThat(s.resolve(TypeRef.named("missing"))).isEmpty();
    assertThat(s.resolve(TypeRef.inline(Atom.scalar(ScalarType.STRING))
            .withElementRelationship(ElementRelationship.ATOMIC))).isEmpty();
  }

  @Test
  void deducedSchemaHasTheTwoUntypedTypes() {
    assertThat(Schema.deducedSchema().typeNames())
        .containsExactly(Schema.UNTYPED_ATOMIC, Schema.UNTYPED_DEDUCED);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      unknown root key       | {types: [], extra: 1}                                                   | schema: unknown key "extra"
      types not a list       | {types: {a: 1}}                                                         | types: expected a list
      nameless type          | {types: [{scalar: string}]}                                             | types[0]: type definition has no name
      duplicate type         | {types: [{name: a, scalar: string}, {name: a, scalar: numeric}]}        | types[1] "a": duplicate type name "a"
      empty scalar           | {types: [{name: a, scalar: ""}]}                                        | types[0] "a".scalar: empty scalar type
      typo in type def       | {types: [{name: a, mapp: {}}]}                                          | types[0] "a": unknown key "mapp"
      list w/o relationship  | {types: [{name: a, list: {elementType: {scalar: string}}}]}             | types[0] "a".list: a list must declare elementRelationship
      bad relationship       | {types: [{name: a, list: {elementRelationship: granular}}]}             | types[0] "a".list.elementRelationship: unknown elementRelationship "granular"
      separable list         | {types: [{name: a, list: {elementRelationship: separable}}]}            | types[0] "a".list: list elementRelationship must be atomic or associative
      duplicate field        | {types: [{name: a, map: {fields: [{name: x}, {name: x}]}}]}             | types[0] "a".map.fields[1] "x": duplicate field name "x"
      bad field type key     | {types: [{name: a, map: {fields: [{name: x, type: {namedTyp: b}}]}}]}   | types[0] "a".map.fields[0] "x".type: unknown key "namedTyp"
      named and inline       | {types: [{name: a, map: {fields: [{name: x, type: {namedType: b, scalar: string}}]}}]} | types[0] "a".map.fields[0] "x".type: namedType "b" and an inline type are mutually exclusive
      non-string key         | {types: [{name: a, list: {elementRelationship: associative, keys: [1]}}]} | types[0] "a".list.keys[0]: expected a string, got integer 1
      nullable not boolean   | {types: [{name: a, map: {elementType: {scalar: string, nullable: 1}}}]}  | types[0] "a".map.elementType.nullable: expected a boolean
      """)
  void rejectsBadSchemasNamingTheLocation(String name, String yaml, String message) {
    assertThatThrownBy(() -> Schema.fromSmdYaml(yaml))
        .isInstanceOf(SchemaException.class)
        .hasMessageContaining(message.trim());
  }

  @Test
  void rejectsInvalidYaml() {
    assertThatThrownBy(() -> Schema.fromSmdYaml("types: ["))
        .isInstanceOf(SchemaException.class)
        .hasMessageStartingWith("schema is not valid YAML");
  }

  @Test
  void emptyDocumentIsAnEmptySchema() {
    assertThat(Schema.fromSmdYaml("").types()).isEmpty();
    assertThat(Schema.fromSmdValue(Value.nullValue()).types()).isEmpty();
  }

  @Test
  void programmaticConstructionMatchesParsing() {
    Schema built = Schema.of(List.of(new TypeDef("pair", Atom.map(MapType.struct(List.of(
        StructField.of("key", TypeRef.inline(Atom.scalar(ScalarType.STRING))),
        StructField.withDefault("value", TypeRef.named("num"), Value.of(1L))))))));
    Schema parsed = Schema.fromSmdYaml("""
        types:
        - name: pair
          map:
            fields:
            - name: key
              type:
                scalar: string
            - name: value
              type:
                namedType: num
              default: 1
        """);
    assertThat(built).isEqualTo(parsed);
  }
}
