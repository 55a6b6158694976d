/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** MutatingAdmissionPolicy cases as data (mutating-cases.yaml). */
class MutatingAdmissionPoliciesTest {

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = MutatingAdmissionPoliciesTest.class
        .getResourceAsStream("/policy/mutating-cases.yaml")) {
      ListValue list = (ListValue) Yaml.read(new String(in.readAllBytes(),
          StandardCharsets.UTF_8));
      return list.items().stream().map(v -> Arguments.of(
          Meta.string((MapValue) v, "name"), v));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void kubeCase(String name, MapValue c) {
    MapValue policy = MapValue.ofEntries("metadata", MapValue.ofEntries("name", Value.of("mutate")),
        "spec", c.getOrNull("policy"));
    MapValue bindingSpec = c.getOrNull("binding") instanceof MapValue b ? b : MapValue.empty();
    MapValue binding = MapValue.ofEntries("metadata",
        MapValue.ofEntries("name", Value.of("mutate-binding")),
        "spec", bindingSpec.with("policyName", Value.of("mutate")));
    MutatingAdmissionPolicies policies =
        MutatingAdmissionPolicies.of(List.of(policy), List.of(binding));
    List<MapValue> params = c.getOrNull("params") instanceof ListValue l
        ? l.items().stream().map(MapValue.class::cast).toList() : List.of();
    TestContext context = new TestContext(params, Map.of());
    var attributes = ValidatingAdmissionPoliciesTest.create((MapValue) c.getOrNull("object"));

    if (c.containsKey("error") || c.containsKey("errorPrefix")) {
      StatusException e = catchThrowableOfType(() -> policies.admit(attributes, context),
          StatusException.class);
      assertThat(e).as("denial").isNotNull();
      if (c.containsKey("error")) {
        assertThat(e.getMessage()).isEqualTo(Meta.string(c, "error"));
      } else {
        assertThat(e.getMessage()).startsWith(Meta.string(c, "errorPrefix"));
      }
      assertThat(e.reason().wireName()).isEqualTo("Invalid");
      assertThat(e.code()).isEqualTo(403);
    } else {
      assertThat(policies.admit(attributes, context)).isEqualTo(c.getOrNull("expected"));
    }
  }
}
