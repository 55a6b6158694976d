/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.OperationOptions;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** kube's integration cases of ValidatingAdmissionPolicy, as data (validating-cases.yaml). */
class ValidatingAdmissionPoliciesTest {

  static Stream<Arguments> cases() throws IOException {
    try (InputStream in = ValidatingAdmissionPoliciesTest.class
        .getResourceAsStream("/policy/validating-cases.yaml")) {
      ListValue list = (ListValue) Yaml.read(new String(in.readAllBytes(),
          StandardCharsets.UTF_8));
      return list.items().stream().map(v -> Arguments.of(
          ((MapValue) v).getOrNull("name").toString(), v));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void kubeCase(String name, MapValue c) {
    String policyName = c.containsKey("policyName")
        ? Meta.string(c, "policyName") : "validate-namespace-suffix";
    MapValue policy = MapValue.ofEntries("apiVersion", Value.of("admissionregistration.k8s.io/v1"),
        "kind", Value.of("ValidatingAdmissionPolicy"),
        "metadata", MapValue.ofEntries("name", Value.of(policyName)),
        "spec", c.getOrNull("policy"));
    MapValue bindingSpec = (MapValue) c.getOrNull("binding");
    bindingSpec = bindingSpec.with("policyName", Value.of(policyName));
    if (!bindingSpec.containsKey("validationActions")) {
      bindingSpec = bindingSpec.with("validationActions", Value.list(Value.of("Deny")));
    }
    MapValue binding = MapValue.ofEntries("metadata",
        MapValue.ofEntries("name", Value.of(policyName + "-binding")), "spec", bindingSpec);
    ValidatingAdmissionPolicies policies =
        ValidatingAdmissionPolicies.of(List.of(policy), List.of(binding));

    MapValue object = (MapValue) c.getOrNull("object");
    List<MapValue> params = c.containsKey("params")
        ? ((ListValue) c.getOrNull("params")).items().stream().map(MapValue.class::cast).toList()
        : List.of();
    AdmissionAttributes attributes = create(object);
    Map<String, MapValue> namespaces = new java.util.HashMap<>();
    if (c.getOrNull("namespaces") instanceof ListValue l) {
      l.items().forEach(n -> namespaces.put(Meta.metaString((MapValue) n, "name"), (MapValue) n));
    }
    TestContext context = new TestContext(params, namespaces);

    if (c.containsKey("error")) {
      StatusException e = catchThrowableOfType(
          () -> policies.validate(attributes, context), StatusException.class);
      assertThat(e).as("denial").isNotNull();
      assertThat(e.getMessage()).isEqualTo(Meta.string(c, "error"));
      assertThat(e.reason().wireName()).isEqualTo(Meta.string(c, "reason"));
      assertThat(e.code()).isEqualTo(((io.apiserver4j.core.IntegerValue) c.getOrNull("code"))
          .value());
    } else {
      PolicyOutcome outcome = policies.validate(attributes, context);
      List<String> warnings = c.containsKey("warnings")
          ? Meta.stringList(c.getOrNull("warnings")) : List.of();
      assertThat(outcome.warnings()).containsExactlyElementsOf(warnings);
      Map<String, String> expected = new LinkedHashMap<>();
      if (c.getOrNull("auditAnnotations") instanceof MapValue m) {
        m.forEach((k, v) -> expected.put(k, ((io.apiserver4j.core.StringValue) v).value()));
      }
      assertThat(outcome.auditAnnotations()).isEqualTo(expected);
    }
  }

  static AdmissionAttributes create(MapValue object) {
    String kind = Meta.string(object, "kind");
    GroupVersionKind gvk = GroupVersionKind.of(Meta.string(object, "apiVersion"), kind);
    String namespace = Meta.metaString(object, "namespace");
    // Test data uses kinds whose resource is the plural with "s" (Endpoints gives "endpointss"),
    // or "ies" after a "y".
    String lower = kind.toLowerCase();
    String resource = lower.endsWith("y") ? lower.substring(0, lower.length() - 1) + "ies"
        : lower + "s";
    return AdmissionAttributes.builder()
        .operation(Operation.CREATE)
        .resource(new GroupVersionResource(gvk.group(), gvk.version(), resource))
        .kind(gvk)
        .name(Meta.metaString(object, "name"))
        .namespace(namespace)
        .object(object)
        .options(OperationOptions.of(Operation.CREATE, false, "test"))
        .build();
  }
}
