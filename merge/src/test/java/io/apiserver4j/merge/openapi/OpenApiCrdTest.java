/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static io.apiserver4j.merge.openapi.SmdSchemas.list;
import static io.apiserver4j.merge.openapi.SmdSchemas.strings;
import static io.apiserver4j.merge.openapi.SmdSchemas.type;
import static io.apiserver4j.merge.openapi.SmdSchemas.walk;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import org.junit.jupiter.api.Test;

class OpenApiCrdTest {
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final String[] META_TYPES = {
      META + "FieldsV1", META + "ManagedFieldsEntry", META + "ObjectMeta", META + "OwnerReference",
      META + "Time"};

  private static final Value CRON_TAB = Yaml.read("""
      type: object
      properties:
        spec:
          type: object
          properties:
            cronSpec: {type: string}
            image: {type: string}
            replicas: {type: integer}
      """);

  @Test
  void rootTypeIsNamedLikeKubeApiserverNamesTheModel() {
    GroupVersionKind gvk = new GroupVersionKind("stable.example.com", "v1", "CronTab");
    assertThat(OpenApiSchemas.crdTypeName(gvk)).isEqualTo("com.example.stable.v1.CronTab");

    CrdSchema crd = OpenApiSchemas.fromCrdVersion(CRON_TAB, gvk);
    assertThat(crd.rootTypeName()).isEqualTo("com.example.stable.v1.CronTab");
    assertThat(SmdSchemas.typeNames(crd.smdSchema())).containsExactly(
        "com.example.stable.v1.CronTab", META + "FieldsV1", META + "ManagedFieldsEntry",
        META + "ObjectMeta", META + "OwnerReference", META + "Time",
        OpenApiSchemas.UNTYPED_ATOMIC, OpenApiSchemas.UNTYPED_DEDUCED);

    CrdSchema byDefault = OpenApiSchemas.fromCrdVersion(CRON_TAB);
    assertThat(byDefault.rootTypeName()).isEqualTo(OpenApiSchemas.DEFAULT_CRD_TYPE_NAME);
    assertThat(type(byDefault.smdSchema(), byDefault.rootTypeName()))
        .isEqualTo(type(crd.smdSchema(), crd.rootTypeName()));
  }

  @Test
  void metadataIsTypedExactlyAsTheBuiltInObjectMeta() {
    MapValue crd = OpenApiSchemas.fromCrdVersion(CRON_TAB).smdSchema();
    MapValue core = OpenApiSchemas.fromDocument(SmdSchemas.openApiDocument("core-v1.json"));
    for (String name : META_TYPES) {
      assertThat(type(crd, name)).as(name).isEqualTo(type(core, name));
    }
    String root = OpenApiSchemas.DEFAULT_CRD_TYPE_NAME;
    MapValue finalizers = list(crd, walk(crd, root, "metadata", "finalizers"));
    assertThat(finalizers.getOrNull("elementRelationship")).isEqualTo(Value.of("associative"));
    MapValue owners = list(crd, walk(crd, root, "metadata", "ownerReferences"));
    assertThat(owners.getOrNull("keys")).isEqualTo(strings("uid"));
  }

  @Test
  void schemalessVersionIsOnlyTheDeducedRoot() {
    CrdSchema crd = OpenApiSchemas.fromCrdVersion(Value.nullValue(),
        new GroupVersionKind("example.com", "v1alpha1", "Thing"));
    assertThat(crd.rootTypeName()).isEqualTo("com.example.v1alpha1.Thing");
    assertThat(SmdSchemas.typeNames(crd.smdSchema())).containsExactly(
        "com.example.v1alpha1.Thing", OpenApiSchemas.UNTYPED_ATOMIC,
        OpenApiSchemas.UNTYPED_DEDUCED);
    assertThat(type(crd.smdSchema(), crd.rootTypeName()))
        .isEqualTo(Yaml.read("map: {elementType: {namedType: __untyped_deduced_}}"));
  }

  @Test
  void embeddedResourcesDeepInsideListsAndMapsGetTypeMeta() {
    Value schema = Yaml.read("""
        type: object
        properties:
          spec:
            type: object
            properties:
              byName:
                type: object
                additionalProperties:
                  type: array
                  items:
                    type: object
                    x-kubernetes-embedded-resource: true
                    x-kubernetes-preserve-unknown-fields: true
        """);
    MapValue crd = OpenApiSchemas.fromCrdVersion(schema).smdSchema();
    MapValue embedded = (MapValue) list(crd, (MapValue) SmdSchemas.map(crd,
        walk(crd, OpenApiSchemas.DEFAULT_CRD_TYPE_NAME, "spec", "byName"))
        .getOrNull("elementType")).getOrNull("elementType");
    assertThat(embedded).isEqualTo(Yaml.read("""
        map:
          fields:
          - {name: apiVersion, type: {scalar: string}}
          - {name: kind, type: {scalar: string}}
          - {name: metadata, type: {namedType: io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta}}
          elementType: {namedType: __untyped_deduced_}
        """));
  }

  @Test
  void aLargeRealCrdSchemaConverts() {
    // The benchmark's Prometheus CRD is a v1beta1 object whose schema predates structural
    // schemas; v1 requires type: object at the root, everything else converts as it is.
    MapValue crdObject = (MapValue) Yaml.read(SmdSchemas.read(SmdSchemas.shared(
        "bench/prometheus-crd.yaml")));
    MapValue schema = (MapValue) ((MapValue) ((MapValue) crdObject.getOrNull("spec"))
        .getOrNull("validation")).getOrNull("openAPIV3Schema");
    CrdSchema crd = OpenApiSchemas.fromCrdVersion(schema.with("type", Value.of("object")),
        new GroupVersionKind("monitoring.coreos.com", "v1", "Prometheus"));
    assertThat(crd.rootTypeName()).isEqualTo("com.coreos.monitoring.v1.Prometheus");
    MapValue s = crd.smdSchema();
    // spec.containers has no list type or patch strategy in this CRD: an atomic list.
    MapValue containers = list(s, walk(s, crd.rootTypeName(), "spec", "containers"));
    assertThat(containers.getOrNull("elementRelationship")).isEqualTo(Value.of("atomic"));
    assertThat(walk(s, crd.rootTypeName(), "metadata"))
        .isEqualTo(SmdConverter.namedRef(META + "ObjectMeta"));
    OpenApiConversionCasesTest.assertStandardTypesLast(s);
  }
}
