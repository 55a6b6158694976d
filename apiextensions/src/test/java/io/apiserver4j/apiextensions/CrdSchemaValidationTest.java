/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiextensions.internal.CelValidation;
import io.apiserver4j.apiextensions.internal.SchemaNode;
import io.apiserver4j.apiextensions.internal.SchemaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's expectations for custom resource validation (see the fixture's header). */
class CrdSchemaValidationTest {

  static Stream<Arguments> cases() {
    return CaseFiles.named("schema-validation-cases.yaml");
  }


  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reportsKubesErrors(String name, MapValue c) {
    SchemaNode schema = SchemaNode.parse(c.getOrNull("schema"));
    Value object = c.getOrNull("object");
    Value old = c.getOrNull("oldObject");
    List<FieldError> errs = new ArrayList<>(
        SchemaValidation.validate(schema, object, Optional.ofNullable(old)));
    CelValidation.validate(schema, object, old, "", errs);
    List<String> expected = new ArrayList<>();
    for (Value e : ((ListValue) c.getOrNull("errors")).items()) {
      expected.add(((StringValue) e).value());
    }
    assertThat(errs.stream().map(FieldError::toString).toList())
        .containsExactlyInAnyOrderElementsOf(expected);
  }
}
