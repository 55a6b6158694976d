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
import io.apiserver4j.core.Value;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Deprecated custom resource versions: the warning of every request (kube's integration test
 * TestCustomResourceDeprecation, handler test Test_defaultDeprecationWarning) and the checks of
 * deprecationWarning (validation test Test_validateDeprecationWarning).
 */
class CrdDeprecationTest {
  private final Fixtures f = new Fixtures();

  // kube's deprecationFixture
  private static final String DEPS = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: deps.tests.example.com}
      spec:
        group: tests.example.com
        scope: Cluster
        names: {plural: deps, singular: dep, kind: Dep, listKind: DepList}
        versions:
        - {name: v1alpha1, served: true, deprecated: true, schema: {openAPIV3Schema: {type: object}}}
        - {name: v1alpha2, served: true, deprecated: true, deprecationWarning: custom deprecation warning,
           schema: {openAPIV3Schema: {type: object}}}
        - {name: v1beta3, served: true, schema: {openAPIV3Schema: {type: object}}}
        - {name: v1beta2, served: true, schema: {openAPIV3Schema: {type: object}}}
        - {name: v1, served: false, storage: true, schema: {openAPIV3Schema: {type: object}}}
      """;

  @Test
  void everyRequestToADeprecatedVersionWarns() {
    assertThat(f.create(CRDS, "", yaml(DEPS), "kubectl").code()).isEqualTo(201);
    String[][] cases = {
        {"v1alpha1", "tests.example.com/v1alpha1 Dep is deprecated; use tests.example.com/v1beta3"
            + " Dep"},
        {"v1alpha2", "custom deprecation warning"},
        {"v1beta2", null},
        {"v1beta3", null}};
    for (String[] c : cases) {
      GroupVersionResource gvr = new GroupVersionResource("tests.example.com", c[0], "deps");
      List<String> want = c[1] == null ? List.of() : List.of(c[1]);
      ApiResponse list = f.server.handle(req(Verb.LIST, gvr, "", "").build());
      assertThat(list.code()).isEqualTo(200);
      assertThat(list.warnings()).as(c[0]).isEqualTo(want);
      ApiResponse create = f.create(gvr, "", yaml("apiVersion: tests.example.com/" + c[0]
          + "\nkind: Dep\nmetadata: {name: d-" + c[0] + "}\n"), "test");
      assertThat(create.code()).isEqualTo(201);
      assertThat(create.warnings()).as(c[0]).isEqualTo(want);
      // errors carry it too
      assertThat(f.get(gvr, "", "missing").warnings()).as(c[0]).isEqualTo(want);
    }
  }

  private static String defaultWarning(String deprecated, String versions) {
    MapValue crd = yaml("""
        spec:
          group: example.com
          names: {kind: Widget}
          versions: %s
        """.formatted(versions));
    return io.apiserver4j.apiextensions.CustomResourceDefinitionValidation.defaultDeprecationWarning(crd,
        deprecated);
  }

  @Test
  void theDefaultWarningNamesTheBestNewerServedVersion() {
    assertThat(defaultWarning("v1", "[{name: v1, served: true, deprecated: true},"
        + " {name: v2, served: true, deprecated: true}, {name: v3, served: false}]"))
        .isEqualTo("example.com/v1 Widget is deprecated");
    StringBuilder all = new StringBuilder("[");
    for (String v : List.of("v1", "v1alpha1", "v1alpha2", "v1beta1", "v1beta2", "v2", "v2alpha1",
        "v2alpha2", "v2beta1", "v2beta2")) {
      all.append("{name: ").append(v).append(", served: true}, ");
    }
    for (String v : List.of("v3", "v3alpha1", "v3alpha2", "v3beta1", "v3beta2")) {
      all.append("{name: ").append(v).append(", served: false}, ");
    }
    assertThat(defaultWarning("v1", all.append("]").toString()))
        .isEqualTo("example.com/v1 Widget is deprecated; use example.com/v2 Widget");
    assertThat(defaultWarning("v2", "[{name: v1, served: true}, {name: v3, served: false},"
        + " {name: v3alpha1, served: true}, {name: v3beta1, served: true},"
        + " {name: v4, served: true, deprecated: true}]"))
        .isEqualTo("example.com/v2 Widget is deprecated");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "false|''|can only be set for deprecated versions",
      "false|foo|can only be set for deprecated versions",
      "true|Iñtërnâtiônàlizætiøn,💝🐹🌇⛔|",
      "true|''|must not be an empty string",
      "true|'Test message\nfoo'|must only contain printable UTF-8 characters; non-printable"
          + " character found at index 12",
      "true|'Test message\u0008'|must only contain printable UTF-8 characters; non-printable"
          + " character found at index 12",
      "true|'Test message\u0000'|must only contain printable UTF-8 characters; non-printable"
          + " character found at index 12",
      "true|'ñ\u0000'|must only contain printable UTF-8 characters; non-printable"
          + " character found at index 2"})
  void deprecationWarningsAreChecked(boolean deprecated, String warning, String error) {
    MapValue crd = yaml(DEPS);
    ApiResponse r = f.create(CRDS, "", withWarning(crd, deprecated, warning), "kubectl");
    if (error == null) {
      assertThat(r.code()).isEqualTo(201);
    } else {
      assertThat(r.code()).isEqualTo(422);
      assertThat(str(r.body(), "message")).isEqualTo("CustomResourceDefinition"
          + ".apiextensions.k8s.io \"deps.tests.example.com\" is invalid:"
          + " spec.versions[2].deprecationWarning: Invalid value: "
          + io.apiserver4j.core.GoStrings.quote(warning) + ": " + error);
    }
  }

  // v1beta3 with these settings
  private static MapValue withWarning(MapValue crd, boolean deprecated, String warning) {
    io.apiserver4j.core.ListValue versions =
        (io.apiserver4j.core.ListValue) io.apiserver4j.core.Nested.getOrNull(crd, "spec",
            "versions");
    MapValue v = ((MapValue) versions.get(2)).with("deprecated", Value.of(deprecated))
        .with("deprecationWarning", Value.of(warning));
    List<Value> items = new java.util.ArrayList<>(versions.items());
    items.set(2, v);
    return io.apiserver4j.core.Nested.set(crd, io.apiserver4j.core.ListValue.of(items), "spec",
        "versions");
  }

  @Test
  void longWarnings() {
    assertThat(io.apiserver4j.apiextensions.CustomResourceDefinitionValidation.deprecationWarningErrors(true,
        "x".repeat(256))).isEmpty();
    assertThat(io.apiserver4j.apiextensions.CustomResourceDefinitionValidation.deprecationWarningErrors(true,
        "x".repeat(257))).containsExactly("must be <= 256 characters long");
  }
}
