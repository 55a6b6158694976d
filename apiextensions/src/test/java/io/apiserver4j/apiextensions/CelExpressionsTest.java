/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiextensions;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiextensions.internal.CelValidation;
import io.apiserver4j.apiextensions.internal.SchemaNode;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's expectations of what rules see of custom resource values (cel-expression-cases). */
class CelExpressionsTest {

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (MapValue m : CaseFiles.cases("cel-expression-cases.yaml")) {
      String name = ((StringValue) m.getOrNull("name")).value();
      for (Value rule : ((ListValue) m.getOrNull("valid")).items()) {
        out.add(Arguments.of(name + ": " + ((StringValue) rule).value(), m, rule, ""));
      }
      if (m.getOrNull("errors") instanceof MapValue errors) {
        errors.forEach((rule, text) -> out.add(Arguments.of(name + ": " + rule, m,
            Value.of(rule), ((StringValue) text).value())));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void evaluatesAsKube(String name, MapValue c, StringValue rule, String error) {
    MapValue schema = ((MapValue) c.getOrNull("schema")).with("x-kubernetes-validations",
        ListValue.of(List.of(MapValue.ofEntries("rule", rule))));
    List<FieldError> errs = new ArrayList<>();
    CelValidation.validate(SchemaNode.parse(schema), c.getOrNull("object"), null, "", errs);
    boolean asKube = error.isEmpty() ? errs.isEmpty()
        : errs.size() == 1 && errs.get(0).detail().contains(error);
    Value differs = c.getOrNull("differs") instanceof MapValue d ? d.getOrNull(rule.value())
        : null;
    if (differs != null) {
      // a known difference of cel-java from cel-go is checked to still be one, so that a fix
      // upstream shows here instead of staying hidden
      assertThat(asKube).as("known difference (%s) no longer differs", differs).isFalse();
      return;
    }
    if (error.isEmpty()) {
      assertThat(errs).isEmpty();
    } else {
      assertThat(errs).singleElement().extracting(FieldError::detail).asString().contains(error);
    }
  }
}
