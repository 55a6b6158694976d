/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.BuiltinResources;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The OpenAPI documents of the built-in resources carry kube's own definitions. */
class BuiltinOpenApiTest {
  private static final OpenApiDocuments DOCS =
      new OpenApiDocuments(BuiltinResources.definitions(), "v1.36.0");

  private static Path api() {
    String p = System.getProperty("apiserver4j.shared");
    return Path.of(p == null ? "../shared" : p).resolve("api");
  }

  private static MapValue schemas(String relativePath) {
    MapValue doc = (MapValue) Json.read(DOCS.document(relativePath).orElseThrow().json());
    return Nested.map(doc, "components", "schemas");
  }

  /**
   * kube-apiserver 1.36's {@code /openapi/v3/apis/authentication.k8s.io/v1}: every schema it
   * has for the group's kinds is ours too, up to what the v2 document we generate from lacks
   * (the {@code default}s kube adds in v3, and the {@code allOf} it then needs around a
   * reference).
   */
  @Test
  void authenticationV1MatchesKubeApiserversDocument() throws IOException {
    MapValue theirs = Nested.map(Json.read(Files.readString(api().resolve(
        "openapi/apis__authentication.k8s.io__v1_openapi.json"))), "components", "schemas");
    MapValue ours = schemas("apis/authentication.k8s.io/v1");

    List<String> compared = new ArrayList<>();
    theirs.forEach((name, schema) -> {
      if (name.startsWith("io.k8s.apimachinery.pkg.apis.meta.v1.APIResource")) {
        return; // the discovery types of the document's GET / path, which we do not serve
      }
      assertThat(ours.containsKey(name)).as(name).isTrue();
      assertThat(withoutDefaults(ours.getOrNull(name))).as(name)
          .isEqualTo(withoutDefaults(schema));
      compared.add(name);
    });
    assertThat(compared).contains("io.k8s.api.authentication.v1.TokenReview",
        "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
  }

  private static Value withoutDefaults(Value v) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder();
      m.forEach((k, x) -> {
        if (!k.equals("default")) {
          b.put(k, withoutDefaults(x));
        }
      });
      MapValue out = b.build();
      if (out.size() == 1 && out.getOrNull("allOf") instanceof ListValue all && all.size() == 1) {
        return all.get(0);
      }
      return out;
    }
    if (v instanceof ListValue l) {
      ListValue.Builder b = ListValue.builder(l.size());
      l.items().forEach(x -> b.add(withoutDefaults(x)));
      return b.build();
    }
    return v;
  }

  @Test
  void deploymentsHaveKubesDescriptionsFormatsAndPatchStrategies() {
    MapValue schemas = schemas("apis/apps/v1");
    // the values of the v1.36.0 swagger.json
    assertThat(Nested.str(schemas, "io.k8s.api.apps.v1.Deployment", "description")).isEqualTo(
        "Deployment enables declarative updates for Pods and ReplicaSets.");
    MapValue spec = Nested.map(schemas, "io.k8s.api.apps.v1.DeploymentSpec", "properties");
    assertThat(Nested.str(spec, "replicas", "format")).isEqualTo("int32");
    assertThat(Nested.str(spec, "strategy", "x-kubernetes-patch-strategy"))
        .isEqualTo("retainKeys");
    assertThat(Json.write(Nested.getOrNull(spec, "strategy", "allOf")))
        .isEqualTo("[{\"$ref\":\"#/components/schemas/io.k8s.api.apps.v1.DeploymentStrategy\"}]");
    MapValue podSpec = Nested.map(schemas, "io.k8s.api.core.v1.PodSpec", "properties");
    assertThat(Nested.str(podSpec, "volumes", "x-kubernetes-patch-strategy"))
        .isEqualTo("merge,retainKeys");
    assertThat(Nested.str(podSpec, "volumes", "x-kubernetes-patch-merge-key"))
        .isEqualTo("name");
    assertThat(Json.write(Nested.getOrNull(schemas, "io.k8s.api.apps.v1.DeploymentSpec", "required")))
        .isEqualTo("[\"selector\",\"template\"]");
    assertThat(Json.write(Nested.getOrNull(schemas, "io.k8s.api.apps.v1.Deployment",
        "x-kubernetes-group-version-kind")))
        .isEqualTo("[{\"group\":\"apps\",\"kind\":\"Deployment\",\"version\":\"v1\"}]");
    assertThat(Nested.str(schemas, "io.k8s.api.autoscaling.v1.Scale", "description"))
        .isEqualTo("Scale represents a scaling request for a resource.");
  }

  @Test
  void everyBuiltinGroupVersionHasADocumentWithItsKinds() {
    for (var d : BuiltinResources.definitions()) {
      MapValue schemas = schemas(OpenApiDocuments.relativePath(d.kind().groupVersion()));
      assertThat(schemas.containsKey(d.schemaType())).as(d.toString()).isTrue();
      assertThat(Nested.str(schemas, d.schemaType(), "description")).as(d.toString())
          .isNotEmpty();
    }
  }
}
