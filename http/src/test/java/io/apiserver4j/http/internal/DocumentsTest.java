/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ResourceDefinition;
import io.apiserver4j.apiserver.ScaleSubresource;
import io.apiserver4j.core.GroupVersion;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

class DocumentsTest {
  static final Schema SCHEMA = Schema.fromSmdYaml(String.join("\n",
      "types:",
      "- name: io.k8s.api.apps.v1.Deployment",
      "  map:",
      "    fields:",
      "    - name: apiVersion",
      "      type: {scalar: string}",
      "    - name: kind",
      "      type: {scalar: string}",
      "    - name: metadata",
      "      type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}",
      "    - name: spec",
      "      type:",
      "        map:",
      "          fields:",
      "          - name: replicas",
      "            type: {scalar: numeric}",
      "          - name: containers",
      "            type:",
      "              list:",
      "                elementType:",
      "                  map:",
      "                    fields:",
      "                    - name: name",
      "                      type: {scalar: string}",
      "                    - name: ports",
      "                      type:",
      "                        list:",
      "                          elementType: {map: {fields: [{name: containerPort, type: {scalar: numeric}}, {name: protocol, type: {scalar: string}}]}}",
      "                          elementRelationship: associative",
      "                          keys: [containerPort, protocol]",
      "                elementRelationship: associative",
      "                keys: [name]",
      "          - name: selector",
      "            type:",
      "              map:",
      "                elementType: {scalar: string}",
      "                elementRelationship: atomic",
      "- name: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
      "  map:",
      "    fields:",
      "    - name: name",
      "      type: {scalar: string}",
      "    - name: finalizers",
      "      type:",
      "        list:",
      "          elementType: {scalar: string}",
      "          elementRelationship: associative",
      "    - name: labels",
      "      type:",
      "        map:",
      "          elementType: {scalar: string}",
      ""));

  static final ResourceDefinition DEPLOYMENTS = ResourceDefinition.builder(
          new GroupVersionKind("apps", "v1", "Deployment"), "deployments")
      .shortNames(List.of("deploy")).categories(List.of("all")).status(true)
      .scale(ScaleSubresource.builtinWorkload())
      .schema(SCHEMA, "io.k8s.api.apps.v1.Deployment").build();
  static final ResourceDefinition CONFIGMAPS = ResourceDefinition.builder(
          new GroupVersionKind("", "v1", "ConfigMap"), "configmaps")
      .shortNames(List.of("cm")).build();
  static final ResourceDefinition NAMESPACES = ResourceDefinition.builder(
          new GroupVersionKind("", "v1", "Namespace"), "namespaces")
      .namespaced(false).shortNames(List.of("ns")).status(true).build();
  static final ResourceDefinition CRONTABS_V1 = ResourceDefinition.builder(
          new GroupVersionKind("stable.example.com", "v1", "CronTab"), "crontabs")
      .customResource(true).build();
  static final ResourceDefinition CRONTABS_V1BETA1 = ResourceDefinition.builder(
          new GroupVersionKind("stable.example.com", "v1beta1", "CronTab"), "crontabs")
      .customResource(true).build();

  final DiscoveryDocuments discovery = new DiscoveryDocuments(List.of(CONFIGMAPS, NAMESPACES,
      DEPLOYMENTS, CRONTABS_V1BETA1, CRONTABS_V1));

  @Test
  void legacyDiscovery() {
    assertThat(Json.write(discovery.apiVersions("127.0.0.1:8080"))).isEqualTo(
        "{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],\"serverAddressByClientCIDRs\":"
            + "[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":\"127.0.0.1:8080\"}]}");
    assertThat(Json.write(discovery.apiGroupList())).isEqualTo(
        "{\"kind\":\"APIGroupList\",\"apiVersion\":\"v1\",\"groups\":["
            + "{\"name\":\"apps\",\"versions\":[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}],"
            + "\"preferredVersion\":{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}},"
            + "{\"name\":\"stable.example.com\",\"versions\":["
            + "{\"groupVersion\":\"stable.example.com/v1\",\"version\":\"v1\"},"
            + "{\"groupVersion\":\"stable.example.com/v1beta1\",\"version\":\"v1beta1\"}],"
            + "\"preferredVersion\":{\"groupVersion\":\"stable.example.com/v1\","
            + "\"version\":\"v1\"}}]}");
    String core = Json.write(discovery.apiResourceList(new GroupVersion("", "v1")).orElseThrow());
    assertThat(core).startsWith("{\"kind\":\"APIResourceList\",\"groupVersion\":\"v1\","
        + "\"resources\":[{\"name\":\"configmaps\",\"singularName\":\"configmap\","
        + "\"namespaced\":true,\"kind\":\"ConfigMap\",\"verbs\":[\"create\",\"delete\","
        + "\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
        + "\"shortNames\":[\"cm\"],\"storageVersionHash\":\"qFsyl6wFWjQ=\"},"
        + "{\"name\":\"namespaces\"");
    assertThat(core).contains("{\"name\":\"namespaces/status\",\"singularName\":\"\","
        + "\"namespaced\":false,\"kind\":\"Namespace\",\"verbs\":[\"get\",\"patch\",\"update\"]}");
    String apps = Json.write(discovery.apiResourceList(new GroupVersion("apps", "v1"))
        .orElseThrow());
    assertThat(apps).startsWith("{\"kind\":\"APIResourceList\",\"apiVersion\":\"v1\","
        + "\"groupVersion\":\"apps/v1\"");
    assertThat(apps).contains("\"categories\":[\"all\"]");
    assertThat(apps).contains("{\"name\":\"deployments/scale\",\"singularName\":\"\","
        + "\"namespaced\":true,\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\","
        + "\"verbs\":[\"get\",\"patch\",\"update\"]},{\"name\":\"deployments/status\"");
    assertThat(discovery.apiResourceList(new GroupVersion("apps", "v2"))).isEmpty();
    assertThat(discovery.apiGroup("apps").orElseThrow().getOrNull("kind"))
        .isEqualTo(Value.of("APIGroup"));
    assertThat(discovery.apiGroup("")).isEmpty();
  }

  @Test
  void aggregatedDiscovery() {
    MapValue apis = discovery.aggregated(false, "v2");
    String json = Json.write(apis);
    assertThat(json).startsWith("{\"kind\":\"APIGroupDiscoveryList\",\"apiVersion\":"
        + "\"apidiscovery.k8s.io/v2\",\"metadata\":{},\"items\":[{\"metadata\":{\"name\":"
        + "\"apps\",\"creationTimestamp\":null},\"versions\":[{\"version\":\"v1\","
        + "\"resources\":[{\"resource\":\"deployments\",\"responseKind\":{\"group\":\"\","
        + "\"version\":\"\",\"kind\":\"Deployment\"},\"scope\":\"Namespaced\","
        + "\"singularResource\":\"deployment\",\"shortNames\":[\"deploy\"],\"categories\":"
        + "[\"all\"],\"verbs\":[");
    assertThat(json).contains("\"subresources\":[{\"subresource\":\"scale\",\"responseKind\":"
        + "{\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"},\"verbs\":[\"get\","
        + "\"patch\",\"update\"]},{\"subresource\":\"status\"");
    assertThat(json).doesNotContain("configmaps");
    String core = Json.write(discovery.aggregated(true, "v2beta1"));
    assertThat(core).contains("\"apiVersion\":\"apidiscovery.k8s.io/v2beta1\"")
        .contains("{\"metadata\":{\"creationTimestamp\":null},\"versions\":[{\"version\":\"v1\"")
        .contains("\"scope\":\"Cluster\"");
  }

  @Test
  void openApiV3IndexAndDocuments() {
    OpenApiDocuments docs = new OpenApiDocuments(List.of(CONFIGMAPS, DEPLOYMENTS, CRONTABS_V1),
        "v1.32.0");
    MapValue index = docs.index();
    String url = Nested.str(index, "paths", "apis/apps/v1", "serverRelativeURL");
    assertThat(url).matches("/openapi/v3/apis/apps/v1\\?hash=[0-9A-F]{128}");
    assertThat(Nested.str(index, "paths", "api/v1", "serverRelativeURL"))
        .startsWith("/openapi/v3/api/v1?hash=");
    assertThat(docs.document("apis/apps/v2")).isEmpty();

    MapValue apps = (MapValue) Json.read(docs.document("apis/apps/v1").orElseThrow().json());
    assertThat(apps.getOrNull("openapi")).isEqualTo(Value.of("3.0.0"));
    MapValue patch = Nested.map(apps, "paths",
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}", "patch");
    assertThat(Nested.getOrNull(patch, "x-kubernetes-group-version-kind")).isEqualTo(Json.read(
        "{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}"));
    assertThat(Json.write(patch.getOrNull("parameters")))
        .contains("{\"in\":\"query\",\"name\":\"fieldValidation\"")
        .contains("{\"in\":\"query\",\"name\":\"force\"")
        .contains("{\"in\":\"query\",\"name\":\"dryRun\"")
        .contains("{\"in\":\"query\",\"name\":\"fieldManager\"");
    assertThat(Nested.map(apps, "paths",
        "/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale", "patch").size())
        .isPositive();
    assertThat(Nested.map(apps, "paths", "/apis/apps/v1/deployments", "get").size())
        .isPositive();

    MapValue schemas = Nested.map(apps, "components", "schemas");
    MapValue deployment = Nested.map(schemas, "io.k8s.api.apps.v1.Deployment");
    assertThat(Json.write(deployment.getOrNull("x-kubernetes-group-version-kind")))
        .isEqualTo("[{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}]");
    assertThat(Nested.str(deployment, "properties", "metadata", "$ref"))
        .isEqualTo("#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    MapValue containers = Nested.map(deployment, "properties", "spec", "properties",
        "containers");
    assertThat(Json.write(containers)).isEqualTo("{\"type\":\"array\",\"items\":{\"type\":"
        + "\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"ports\":{\"type\":"
        + "\"array\",\"items\":{\"type\":\"object\",\"properties\":{\"containerPort\":{\"type\":"
        + "\"number\"},\"protocol\":{\"type\":\"string\"}}},\"x-kubernetes-list-map-keys\":"
        + "[\"containerPort\",\"protocol\"],\"x-kubernetes-list-type\":\"map\"}}},"
        + "\"x-kubernetes-list-map-keys\":[\"name\"],\"x-kubernetes-list-type\":\"map\","
        + "\"x-kubernetes-patch-merge-key\":\"name\",\"x-kubernetes-patch-strategy\":\"merge\"}");
    assertThat(Json.write(Nested.getOrNull(deployment, "properties", "spec", "properties",
        "selector"))).isEqualTo("{\"type\":\"object\",\"additionalProperties\":{\"type\":"
        + "\"string\"},\"x-kubernetes-map-type\":\"atomic\"}");
    assertThat(Json.write(Nested.getOrNull(schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
        "properties", "finalizers"))).isEqualTo("{\"type\":\"array\",\"items\":{\"type\":"
        + "\"string\"},\"x-kubernetes-list-type\":\"set\",\"x-kubernetes-patch-strategy\":"
        + "\"merge\"}");
    assertThat(Json.write(Nested.getOrNull(schemas, "io.k8s.api.apps.v1.DeploymentList",
        "x-kubernetes-group-version-kind"))).contains("\"kind\":\"DeploymentList\"");

    MapValue cr = (MapValue) Json.read(docs.document("apis/stable.example.com/v1")
        .orElseThrow().json());
    MapValue crontab = Nested.map(cr, "components", "schemas", "com.example.stable.v1.CronTab");
    assertThat(crontab.getOrNull("x-kubernetes-preserve-unknown-fields"))
        .isEqualTo(Value.of(true));
    assertThat(Json.write(crontab.getOrNull("x-kubernetes-group-version-kind")))
        .contains("\"kind\":\"CronTab\"");
  }

  @Test
  void versionsSortLikeKube() {
    List<String> v = new java.util.ArrayList<>(List.of("v1alpha1", "foo", "v2", "v1beta2",
        "v1", "v10", "v11alpha2", "v1beta1", "bar"));
    v.sort(Versions.PRIORITY);
    assertThat(v).containsExactly("v10", "v2", "v1", "v1beta2", "v1beta1", "v11alpha2",
        "v1alpha1", "bar", "foo");
  }
}
