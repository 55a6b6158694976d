/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Runs the table in {@code conversion-cases.yaml}. */
class OpenApiConversionCasesTest {

  static Stream<Arguments> cases() throws IOException {
    String text;
    try (InputStream in = OpenApiConversionCasesTest.class
        .getResourceAsStream("conversion-cases.yaml")) {
      assertThat(in).as("conversion-cases.yaml").isNotNull();
      text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Arguments> out = new ArrayList<>();
    for (Value c : ((ListValue) Yaml.read(text)).items()) {
      MapValue m = (MapValue) c;
      out.add(Arguments.of(((StringValue) m.getOrNull("name")).value(), m));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void conversion(String name, MapValue testCase) {
    Supplier<Result> convert = converter(testCase);
    Value error = testCase.getOrNull("error");
    if (error != null) {
      MapValue e = (MapValue) error;
      String path = ((StringValue) e.getOrNull("path")).value();
      String message = ((StringValue) e.getOrNull("message")).value();
      assertThatThrownBy(convert::get)
          .isInstanceOf(OpenApiSchemaException.class)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith(path + ": ")
          .hasMessageContaining(message)
          .satisfies(t -> assertThat(((OpenApiSchemaException) t).path()).isEqualTo(path));
      return;
    }
    Result result = convert.get();
    MapValue expected = (MapValue) testCase.getOrNull("expected");
    assertThat(expected).as("case needs expected or error").isNotNull();
    for (int i = 0; i < expected.size(); i++) {
      String type = expected.keyAt(i).equals("root") && result.root != null
          ? result.root : expected.keyAt(i);
      assertThat(Json.write(SmdSchemas.type(result.schema, type)))
          .as("type %s", type)
          .isEqualTo(Json.write(expected.valueAt(i)));
      // Map equality ignores key order; the JSON comparison above also pins field order.
      assertThat(SmdSchemas.type(result.schema, type)).isEqualTo(expected.valueAt(i));
    }
    if (testCase.getOrNull("absent") instanceof ListValue absent) {
      for (Value a : absent.items()) {
        assertThat(SmdSchemas.typeNames(result.schema)).doesNotContain(((StringValue) a).value());
      }
    }
    assertStandardTypesLast(result.schema);
  }

  private record Result(MapValue schema, String root) {}

  private static Supplier<Result> converter(MapValue testCase) {
    Value schemas = testCase.getOrNull("schemas");
    if (schemas != null) {
      Value doc = MapValue.builder()
          .put("openapi", Value.of("3.0.0"))
          .put("components", MapValue.builder().put("schemas", schemas).build())
          .build();
      return () -> new Result(OpenApiSchemas.fromDocument(doc), null);
    }
    if (testCase.getOrNull("schemaless") instanceof BooleanValue b && b.value()) {
      return () -> {
        CrdSchema crd = OpenApiSchemas.fromCrdVersion(Value.nullValue());
        return new Result(crd.smdSchema(), crd.rootTypeName());
      };
    }
    Value crd = testCase.getOrNull("crd");
    assertThat(crd).as("case needs schemas, crd or schemaless").isNotNull();
    return () -> {
      CrdSchema s = OpenApiSchemas.fromCrdVersion(crd);
      return new Result(s.smdSchema(), s.rootTypeName());
    };
  }

  /** Every schema ends with SMD's two untyped types, exactly as schemaconv defines them. */
  static void assertStandardTypesLast(MapValue schema) {
    List<MapValue> types = SmdSchemas.types(schema);
    assertThat(types.size()).isGreaterThanOrEqualTo(2);
    assertThat(types.get(types.size() - 2)).isEqualTo(Yaml.read("""
        name: __untyped_atomic_
        scalar: untyped
        list:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
        map:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
        """));
    assertThat(types.get(types.size() - 1)).isEqualTo(Yaml.read("""
        name: __untyped_deduced_
        scalar: untyped
        list:
          elementType: {namedType: __untyped_atomic_}
          elementRelationship: atomic
        map:
          elementType: {namedType: __untyped_deduced_}
          elementRelationship: separable
        """));
  }

  @Test
  void emptyDocumentHasOnlyTheUntypedTypes() {
    MapValue schema = OpenApiSchemas.fromDocument(Json.read("{\"openapi\":\"3.0.0\"}"));
    assertThat(SmdSchemas.typeNames(schema))
        .containsExactly(OpenApiSchemas.UNTYPED_ATOMIC, OpenApiSchemas.UNTYPED_DEDUCED);
  }

  @Test
  void documentMustBeAnObject() {
    assertThatThrownBy(() -> OpenApiSchemas.fromDocument(Json.read("[]")))
        .isInstanceOf(OpenApiSchemaException.class)
        .hasMessage("document: an OpenAPI document must be a JSON object, got a list");
    assertThatThrownBy(() -> OpenApiSchemas.fromDocument(Json.read("{\"components\":3}")))
        .isInstanceOf(OpenApiSchemaException.class)
        .hasMessage("components: must be an object, got integer 3");
    assertThatThrownBy(
        () -> OpenApiSchemas.fromDocument(Json.read("{\"components\":{\"schemas\":\"x\"}}")))
        .isInstanceOf(OpenApiSchemaException.class)
        .hasMessage("components.schemas: must be an object, got \"x\"");
  }

  @Test
  void nullArgumentsAreRejected() {
    assertThatThrownBy(() -> OpenApiSchemas.fromDocument(null))
        .isInstanceOf(NullPointerException.class).hasMessage("openApiV3Document");
    assertThatThrownBy(() -> OpenApiSchemas.fromCrdVersion(null))
        .isInstanceOf(NullPointerException.class).hasMessage("openApiV3Schema");
  }
}
