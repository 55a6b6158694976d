/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * How kubectl sees a CRD's presentation: deprecated versions' warnings (also on watches),
 * selectable fields in {@code --field-selector}, priority columns in {@code -o wide}.
 */
class CrdPresentationTest extends KubectlServerTest {
  @BeforeAll
  static void start() {
    kubectl.file("crd.yaml", """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.example.com}
        spec:
          group: example.com
          scope: Namespaced
          names: {plural: widgets, singular: widget, kind: Widget}
          versions:
          - name: v1beta1
            served: true
            storage: false
            deprecated: true
            schema: &schema
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties: {color: {type: string}, size: {type: integer}}
            selectableFields: [{jsonPath: .spec.color}]
            additionalPrinterColumns: &columns
            - {name: Color, type: string, jsonPath: .spec.color}
            - {name: Size, type: integer, jsonPath: .spec.size, priority: 1}
          - name: v1
            served: true
            storage: true
            schema: *schema
            selectableFields: [{jsonPath: .spec.color}]
            additionalPrinterColumns: *columns
        """);
    kubectl.ok("apply", "-f", "crd.yaml");
    kubectl.ok("wait", "--for=condition=Established", "crd/widgets.example.com");
    for (String[] w : new String[][] {{"a", "blue", "1"}, {"b", "red", "2"}}) {
      kubectl.file(w[0] + ".yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: "
          + w[0] + ", namespace: default}\nspec: {color: " + w[1] + ", size: " + w[2] + "}\n");
      kubectl.ok("apply", "-f", w[0] + ".yaml");
    }
  }

  private static List<String> header(String table) {
    return Arrays.asList(table.lines().findFirst().orElse("").trim().split("\\s{2,}"));
  }

  @Test
  void clientSideApplyOfAChangedCustomResourceSendsAMergePatch() {
    // kubectl chooses the patch type from the PATCH operation's media types in OpenAPI v3:
    // kube's CRD builder lists no strategic merge patch, which custom resources refuse (415)
    kubectl.file("c.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: c,"
        + " namespace: default}\nspec: {color: green, size: 3}\n");
    assertThat(kubectl.ok("apply", "-f", "c.yaml")).isEqualTo("widget.example.com/c created\n");
    assertThat(kubectl.ok("apply", "-f", "c.yaml")).isEqualTo("widget.example.com/c unchanged\n");
    kubectl.file("c.yaml", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: c,"
        + " namespace: default}\nspec: {color: yellow, size: 3}\n");
    assertThat(kubectl.ok("apply", "-f", "c.yaml"))
        .isEqualTo("widget.example.com/c configured\n");
    assertThat(kubectl.ok("get", "widget", "c", "-o", "jsonpath={.spec.color}"))
        .isEqualTo("yellow");
    String v3 = kubectl.ok("get", "--raw", "/openapi/v3/apis/example.com/v1");
    MapValue content = Nested.map(Json.read(v3), "paths",
        "/apis/example.com/v1/namespaces/{namespace}/widgets/{name}", "patch", "requestBody",
        "content");
    assertThat(content.asMap().keySet()).containsExactlyInAnyOrder(
        "application/json-patch+json", "application/merge-patch+json",
        "application/apply-patch+yaml");
  }

  @Test
  void aDeprecatedVersionWarnsKubectl() {
    Kubectl.Result r = kubectl.run("get", "widgets.v1beta1.example.com", "-n", "default");
    assertThat(r.exitCode()).isZero();
    assertThat(r.stderr()).isEqualTo("Warning: example.com/v1beta1 Widget is deprecated; use"
        + " example.com/v1 Widget\n");
    Kubectl.Result v1 = kubectl.run("get", "widgets.v1.example.com", "-n", "default");
    assertThat(v1.stderr()).isEmpty();
  }

  @Test
  void aWatchOfADeprecatedVersionCarriesTheWarning() throws Exception {
    HttpResponse<Void> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            http.url() + "/apis/example.com/v1beta1/namespaces/default/widgets?watch=1"
                + "&timeoutSeconds=1")).build(), HttpResponse.BodyHandlers.discarding());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().allValues("Warning")).containsExactly("299 - \"example.com/v1beta1"
        + " Widget is deprecated; use example.com/v1 Widget\"");
  }

  @Test
  void selectableFieldsFilterKubectlGet() {
    String out = kubectl.ok("get", "widgets", "-n", "default", "--field-selector",
        "spec.color=blue", "-o", "name");
    assertThat(out).isEqualTo("widget.example.com/a\n");
    Kubectl.Result bad = kubectl.run("get", "widgets", "-n", "default", "--field-selector",
        "spec.size=1");
    assertThat(bad.exitCode()).isEqualTo(1);
    assertThat(bad.stderr()).contains("field label not supported: spec.size");
  }

  @Test
  void priorityColumnsShowInWide() {
    assertThat(header(kubectl.ok("get", "widgets", "-n", "default")))
        .containsExactly("NAME", "COLOR");
    String wide = kubectl.ok("get", "widgets", "-n", "default", "-o", "wide");
    assertThat(header(wide)).containsExactly("NAME", "COLOR", "SIZE");
    assertThat(wide).containsPattern("a\\s+blue\\s+1");
  }

  @Test
  void kubectlExplainReadsTheCrdsSchema() {
    String out = kubectl.ok("explain", "widgets.spec");
    assertThat(out).contains("GROUP:      example.com").contains("KIND:       Widget")
        .contains("VERSION:    v1").containsPattern("color\\s+<string>")
        .containsPattern("size\\s+<integer>");
  }
}
