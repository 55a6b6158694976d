/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.str;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.Value;
import io.apiserver4j.merge.Schema;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The public facade: builder strictness, the registry, embedder-defined kinds, the client. */
class ApiServerBuilderAndRegistryTest {
  private static final String SCHEMA = """
      types:
      - name: Gizmo
        map:
          fields:
          - {name: apiVersion, type: {scalar: string}}
          - {name: kind, type: {scalar: string}}
          - {name: metadata, type: {namedType: __untyped_deduced_}}
          - name: spec
            type:
              map:
                fields:
                - {name: parts, type: {list: {elementType: {namedType: Part},
                    elementRelationship: associative, keys: [id]}}}
      - name: Part
        map:
          fields:
          - {name: id, type: {scalar: string}}
          - {name: size, type: {scalar: numeric}}
      - name: __untyped_atomic_
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
      - name: __untyped_deduced_
        scalar: untyped
        list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
        map: {elementType: {namedType: __untyped_deduced_}, elementRelationship: separable}
      """;

  static ResourceDefinition gizmos() {
    return ResourceDefinition.builder(new GroupVersionKind("toys.example.com", "v1", "Gizmo"),
        "gizmos").namespaced(false).schema(Schema.fromSmdYaml(SCHEMA), "Gizmo").build();
  }

  @Test
  void builtInKindsAreServedByDefault() {
    // counts the ConfigMaps of default: no root-ca-cert-publisher (ServiceAccount) here
    try (ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build()) {
      List<String> kinds = server.registry().all().stream().map(d -> d.kind().kind()).toList();
      // a 1.36 kube-apiserver serves 68 resources by default (../shared/api/README.md)
      assertThat(kinds).hasSize(68).contains("Namespace", "ConfigMap", "Secret",
          "ServiceAccount", "Event", "Service", "Pod", "Endpoints", "Deployment", "ReplicaSet",
          "StatefulSet", "DaemonSet", "Job", "CronJob", "Role", "ClusterRoleBinding", "Lease",
          "Ingress", "HorizontalPodAutoscaler", "PodDisruptionBudget",
          "CustomResourceDefinition", "APIService", "SubjectAccessReview");
      ResourceDefinition deployments = server.registry()
          .find(new GroupVersionResource("apps", "v1", "deployments")).orElseThrow();
      assertThat(deployments.subresources()).containsExactly("status", "scale");
      assertThat(deployments.shortNames()).containsExactly("deploy");
      assertThat(deployments.verbs()).contains("patch", "watch", "deletecollection");
      assertThat(deployments.listKind()).isEqualTo("DeploymentList");
      assertThat(deployments.singular()).isEqualTo("deployment");
    }
  }

  @Test
  void anEmbedderDefinedKindIsServedWithItsSchema() {
    try (ApiServer server = ApiServer.builder().builtinResources(false).resource(gizmos())
        .build()) {
      ResourceClient client = server.resources("toys.example.com/v1", "gizmos");
      client.apply("a", """
          apiVersion: toys.example.com/v1
          kind: Gizmo
          metadata: {name: g}
          spec: {parts: [{id: p1, size: 1}]}
          """);
      MapValue merged = client.apply("b", """
          apiVersion: toys.example.com/v1
          kind: Gizmo
          metadata: {name: g}
          spec: {parts: [{id: p2, size: 2}]}
          """);

      assertThat(Fixtures.at(merged, "spec", "parts")).isEqualTo(Fixtures.json(
          "[{\"id\":\"p1\",\"size\":1},{\"id\":\"p2\",\"size\":2}]"));
      assertThat(server.registry().all()).hasSize(1);
      assertThatThrownBy(() -> client.apply("b", """
          apiVersion: toys.example.com/v1
          kind: Gizmo
          metadata: {name: g}
          spec: {parts: [{id: p1, size: 5}]}
          """)).isInstanceOf(ConflictException.class)
          .hasMessage("Apply failed with 1 conflict: conflict with \"a\":"
              + " .spec.parts[id=\"p1\"].size");
    }
  }

  @Test
  void theTypedClientRoundTrips() {
    // counts the ConfigMaps of default: no root-ca-cert-publisher (ServiceAccount) here
    try (ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build()) {
      ResourceClient cms = server.resources("v1", "configmaps").namespace("default");
      cms.create(Fixtures.yaml("""
          apiVersion: v1
          kind: ConfigMap
          metadata: {name: a}
          """));
      MapValue a = cms.get("a");
      cms.update(a.with("data", MapValue.ofEntries("k", Value.of("v"))));
      cms.dryRun().delete("a");

      assertThat(cms.list()).hasSize(1);
      assertThat(str(cms.get("a"), "data", "k")).isEqualTo("v");
      assertThat(cms.find("nope")).isEmpty();
      cms.delete("a");
      assertThatThrownBy(() -> cms.get("a")).isInstanceOf(NotFoundException.class);
    }
  }

  @Test
  void theBuilderRejectsRepeatedAndClashingOptions() {
    assertThatThrownBy(() -> ApiServer.builder().clock(java.time.Clock.systemUTC())
        .clock(java.time.Clock.systemUTC())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("clock");
    assertThatThrownBy(() -> ApiServer.builder().resource(gizmos()).resource(gizmos()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clashes");
    ResourceDefinition fakeConfigMaps = ResourceDefinition.builder(
        new GroupVersionKind("", "v1", "ConfigMap"), "configmaps").build();
    assertThatThrownBy(() -> ApiServer.builder().resource(fakeConfigMaps).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("built-in");
    assertThatThrownBy(() -> ResourceDefinition.builder(
        new GroupVersionKind("x.io", "v1", "my_thing"), "things").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DNS-1035");
    // kube serves CRDs whose kind is all lower case
    assertThat(ResourceDefinition.builder(
        new GroupVersionKind("x.io", "v1", "thing"), "things").build().kind().kind())
        .isEqualTo("thing");
    assertThatThrownBy(() -> ResourceDefinition.builder(
        new GroupVersionKind("x.io", "v1", "Thing"), "things")
        .schema(Schema.fromSmdYaml("types:\n- name: Thing\n  map:\n    fields:\n"
            + "    - {name: spec, type: {namedType: Missing}}\n"), "Thing").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("undefined type Missing");
    assertThatThrownBy(() -> ResourceDefinition.builder(
        new GroupVersionKind("x.io", "v1", "Thing"), "Things").build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("plural");
  }

  @Test
  void aClosedServerRefusesRequestsAndWatchesNeedAWatchRequest() {
    ApiServer server = ApiServer.builder().build();
    ApiRequest get = ApiRequest.builder(ApiRequest.Verb.GET,
        new GroupVersionResource("", "v1", "configmaps")).namespace("default").name("x").build();

    assertThatThrownBy(() -> server.watch(get)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> server.handle(get.newBuilder().verb(ApiRequest.Verb.WATCH).build()))
        .isInstanceOf(IllegalArgumentException.class);
    server.close();
    server.close();
    assertThatThrownBy(() -> server.handle(get)).isInstanceOf(IllegalStateException.class);
  }
}
