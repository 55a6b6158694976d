/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import static io.apiserver4j.apimachinery.patch.PatchFixtures.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.GroupVersionKind;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OpenApiPatchSchemasTest {
  private final OpenApiPatchSchemas kube = PatchFixtures.kube();

  @Test
  void findsSchemasByKindAndName() {
    PatchSchema pod = kube.forKind(new GroupVersionKind("", "v1", "Pod")).orElseThrow();
    assertThat(pod).isSameAs(kube.named("io.k8s.api.core.v1.Pod").orElseThrow());
    assertThat(kube.forKind(new GroupVersionKind("apps", "v1", "Deployment"))).isPresent();
    assertThat(kube.forKind(new GroupVersionKind("apps", "v2", "Deployment"))).isEmpty();
    assertThat(kube.named("nope")).isEmpty();
  }

  @Test
  void readsPatchStrategiesAndMergeKeys() {
    PatchSchema podSpec = kube.named("io.k8s.api.core.v1.Pod").orElseThrow()
        .field("spec").schema();
    PatchField containers = podSpec.field("containers");
    assertThat(containers.strategy()).isEqualTo(PatchStrategy.MERGE);
    assertThat(containers.mergeKey()).contains("name");
    assertThat(containers.retainKeys()).isFalse();

    PatchSchema container = containers.schema().items();
    assertThat(container.field("ports").mergeKey()).contains("containerPort");
    assertThat(container.field("env").mergeKey()).contains("name");
    assertThat(container.field("args").strategy()).isEqualTo(PatchStrategy.DEFAULT);
    assertThat(container.field("args").mergeKey()).isEmpty();

    PatchField volumes = podSpec.field("volumes");
    assertThat(volumes.strategy()).isEqualTo(PatchStrategy.MERGE);
    assertThat(volumes.retainKeys()).isTrue();
    assertThat(volumes.mergeKey()).contains("name");

    PatchSchema metadata = kube.named("io.k8s.api.core.v1.Pod").orElseThrow()
        .field("metadata").schema();
    PatchField finalizers = metadata.field("finalizers");
    assertThat(finalizers.strategy()).isEqualTo(PatchStrategy.MERGE);
    assertThat(finalizers.mergeKey()).isEmpty();
    assertThat(metadata.field("ownerReferences").mergeKey()).contains("uid");

    PatchField strategy = kube.named("io.k8s.api.apps.v1.DeploymentSpec").orElseThrow()
        .field("strategy");
    assertThat(strategy.strategy()).isEqualTo(PatchStrategy.DEFAULT);
    assertThat(strategy.retainKeys()).isTrue();
    assertThat(strategy.schema().field("rollingUpdate").schema().field("maxSurge"))
        .isNotEqualTo(PatchField.unknown());
  }

  @Test
  void mapsOfArbitraryKeysUseTheValueSchema() {
    PatchSchema metadata = kube.named("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
        .orElseThrow();
    PatchSchema labels = metadata.field("labels").schema();
    assertThat(labels.field("any-key")).isNotEqualTo(PatchField.unknown());
    assertThat(labels.field("any-key").strategy()).isEqualTo(PatchStrategy.DEFAULT);
  }

  @Test
  void undeclaredFieldsAreUnknown() {
    PatchSchema pod = kube.named("io.k8s.api.core.v1.Pod").orElseThrow();
    assertThat(pod.field("nope")).isEqualTo(PatchField.unknown());
    assertThat(pod.items()).isSameAs(PatchSchema.unknown());
    assertThat(PatchSchema.unknown().field("x").schema()).isSameAs(PatchSchema.unknown());
  }

  @Test
  void lookupsAreCached() {
    PatchSchema pod = kube.named("io.k8s.api.core.v1.Pod").orElseThrow();
    assertThat(pod.field("spec")).isSameAs(pod.field("spec"));
    assertThat(pod.field("spec").schema())
        .isSameAs(kube.named("io.k8s.api.core.v1.PodSpec").orElseThrow());
  }

  @Test
  void rejectsDocumentsWithoutSchemas() {
    assertThatThrownBy(() -> OpenApiPatchSchemas.of(json("{\"openapi\":\"3.0.0\"}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("components.schemas");
  }

  @Test
  void rejectsUnresolvableReferences() {
    assertThatThrownBy(() -> OpenApiPatchSchemas.of(json("{\"components\":{\"schemas\":{"
        + "\"A\":{\"properties\":{\"b\":{\"allOf\":[{\"$ref\":\"#/components/schemas/B\"}]}}}"
        + "}}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unable to resolve #/components/schemas/B in OpenAPI V3 (at A.b)");
  }

  @Test
  void rejectsInvalidPatchStrategies() {
    assertThatThrownBy(() -> OpenApiPatchSchemas.of(json("{\"components\":{\"schemas\":{"
        + "\"A\":{\"properties\":{\"b\":{\"type\":\"array\","
        + "\"x-kubernetes-patch-strategy\":\"merge,replace\"}}}}}}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unexpected patch strategy: merge,replace (at A.b)");
  }

  @Test
  void firstDefinitionOfANameWins() {
    OpenApiPatchSchemas schemas = OpenApiPatchSchemas.of(
        json("{\"components\":{\"schemas\":{\"A\":{\"properties\":{\"l\":{"
            + "\"x-kubernetes-patch-strategy\":\"merge\"}}}}}}"),
        json("{\"components\":{\"schemas\":{\"A\":{\"properties\":{}}}}}"));
    assertThat(schemas.named("A").orElseThrow().field("l").strategy())
        .isEqualTo(PatchStrategy.MERGE);
  }

  @Test
  void parsesStrategiesAsKubeDoes() {
    PatchSchema s = PatchSchema.unknown();
    assertThat(PatchField.parse("", Optional.empty(), s))
        .isEqualTo(PatchField.of(s));
    assertThat(PatchField.parse("merge", Optional.of("name"), s))
        .isEqualTo(PatchField.merge("name", s));
    assertThat(PatchField.parse("retainKeys,merge", Optional.of("name"), s))
        .isEqualTo(PatchField.merge("name", s).withRetainKeys());
    assertThat(PatchField.parse("replace", Optional.of(""), s))
        .isEqualTo(PatchField.replace(s));
    assertThat(PatchField.parse("whatever", Optional.empty(), s).strategy())
        .isEqualTo(PatchStrategy.DEFAULT);
    assertThatThrownBy(() -> PatchField.parse("merge,retainKeys,replace", Optional.empty(), s))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new PatchField(PatchStrategy.MERGE, false, Optional.of(""), s))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
