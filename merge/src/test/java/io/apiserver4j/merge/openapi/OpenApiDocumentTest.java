/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge.openapi;

import static io.apiserver4j.merge.openapi.SmdSchemas.field;
import static io.apiserver4j.merge.openapi.SmdSchemas.list;
import static io.apiserver4j.merge.openapi.SmdSchemas.map;
import static io.apiserver4j.merge.openapi.SmdSchemas.strings;
import static io.apiserver4j.merge.openapi.SmdSchemas.type;
import static io.apiserver4j.merge.openapi.SmdSchemas.walk;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Values;
import io.apiserver4j.core.Yaml;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Converts the real core/v1, apps/v1 and batch/v1 documents and checks what merging needs. */
class OpenApiDocumentTest {
  private static final String CORE = "io.k8s.api.core.v1.";
  private static final String META = "io.k8s.apimachinery.pkg.apis.meta.v1.";
  private static final Value ASSOCIATIVE = Value.of("associative");
  private static final Value ATOMIC = Value.of("atomic");

  private static MapValue core;
  private static MapValue apps;
  private static MapValue batch;

  @BeforeAll
  static void convert() {
    core = OpenApiSchemas.fromDocument(SmdSchemas.openApiDocument("core-v1.json"));
    apps = OpenApiSchemas.fromDocument(SmdSchemas.openApiDocument("apps-v1.json"));
    batch = OpenApiSchemas.fromDocument(SmdSchemas.openApiDocument("batch-v1.json"));
  }

  private static void assertKeyedList(MapValue schema, MapValue ref, String elementType,
      String... keys) {
    MapValue list = list(schema, ref);
    assertThat(list.getOrNull("elementRelationship")).isEqualTo(ASSOCIATIVE);
    assertThat(list.getOrNull("keys")).isEqualTo(strings(keys));
    assertThat(list.getOrNull("elementType")).isEqualTo(SmdConverter.namedRef(elementType));
  }

  private static void assertAtomicList(MapValue schema, MapValue ref) {
    MapValue list = list(schema, ref);
    assertThat(list.getOrNull("elementRelationship")).isEqualTo(ATOMIC);
    assertThat(list.containsKey("keys")).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"core-v1.json", "apps-v1.json", "batch-v1.json"})
  void everyComponentSchemaBecomesATypeInSortedOrder(String file) {
    Value doc = SmdSchemas.openApiDocument(file);
    MapValue schemas = (MapValue) ((MapValue) ((MapValue) doc).getOrNull("components"))
        .getOrNull("schemas");
    MapValue schema = OpenApiSchemas.fromDocument(doc);

    List<String> expected = new ArrayList<>();
    for (int i = 0; i < schemas.size(); i++) {
      expected.add(schemas.keyAt(i));
    }
    expected.sort(Values::compareStrings);
    expected.add(OpenApiSchemas.UNTYPED_ATOMIC);
    expected.add(OpenApiSchemas.UNTYPED_DEDUCED);
    assertThat(SmdSchemas.typeNames(schema)).containsExactlyElementsOf(expected);
    OpenApiConversionCasesTest.assertStandardTypesLast(schema);
    // Deterministic: the same document converts to the same value.
    assertThat(OpenApiSchemas.fromDocument(doc)).isEqualTo(schema);
  }

  @Test
  void podContainersAreKeyedByName() {
    assertThat(walk(core, CORE + "Pod", "spec")).isEqualTo(SmdConverter.namedRef(CORE + "PodSpec"));
    assertKeyedList(core, walk(core, CORE + "PodSpec", "containers"), CORE + "Container", "name");
    assertKeyedList(core, walk(core, CORE + "PodSpec", "initContainers"), CORE + "Container",
        "name");
    assertKeyedList(core, walk(core, CORE + "PodSpec", "volumes"), CORE + "Volume", "name");
    assertKeyedList(core, walk(core, CORE + "PodSpec", "topologySpreadConstraints"),
        CORE + "TopologySpreadConstraint", "topologyKey", "whenUnsatisfiable");
  }

  @Test
  void containerPortsAreKeyedByPortAndProtocolWithProtocolDefaultingToTcp() {
    assertKeyedList(core, walk(core, CORE + "Container", "ports"), CORE + "ContainerPort",
        "containerPort", "protocol");
    MapValue port = type(core, CORE + "ContainerPort");
    assertThat(field(port, "protocol").getOrNull("default")).isEqualTo(Value.of("TCP"));
    assertThat(field(port, "containerPort").getOrNull("default")).isEqualTo(Value.of(0));
    assertThat(field(port, "hostIP").containsKey("default")).isFalse();
  }

  @Test
  void containerEnvIsKeyedByNameAndTolerationsAreAtomic() {
    assertKeyedList(core, walk(core, CORE + "Container", "env"), CORE + "EnvVar", "name");
    assertKeyedList(core, walk(core, CORE + "Container", "volumeMounts"), CORE + "VolumeMount",
        "mountPath");
    assertAtomicList(core, walk(core, CORE + "PodSpec", "tolerations"));
    assertAtomicList(core, walk(core, CORE + "Container", "command"));
    assertAtomicList(core, walk(core, CORE + "Container", "args"));
  }

  @Test
  void objectMetaListsAndMaps() {
    MapValue finalizers = list(core, walk(core, META + "ObjectMeta", "finalizers"));
    assertThat(finalizers.getOrNull("elementRelationship")).isEqualTo(ASSOCIATIVE);
    assertThat(finalizers.containsKey("keys")).isFalse();
    assertThat(finalizers.getOrNull("elementType")).isEqualTo(Yaml.read("scalar: string"));

    for (String granular : new String[] {"labels", "annotations"}) {
      MapValue labels = map(core, walk(core, META + "ObjectMeta", granular));
      assertThat(labels).as(granular).isEqualTo(Yaml.read("elementType: {scalar: string}"));
    }

    assertKeyedList(core, walk(core, META + "ObjectMeta", "ownerReferences"),
        META + "OwnerReference", "uid");
    assertThat(map(core, SmdConverter.namedRef(META + "OwnerReference"))
        .getOrNull("elementRelationship")).isEqualTo(ATOMIC);
    assertAtomicList(core, walk(core, META + "ObjectMeta", "managedFields"));
    assertThat(walk(core, META + "ObjectMeta", "managedFields", "[]"))
        .isEqualTo(SmdConverter.namedRef(META + "ManagedFieldsEntry"));
    assertThat(field(type(core, META + "ObjectMeta"), "creationTimestamp").getOrNull("default"))
        .isEqualTo(MapValue.empty());
  }

  @Test
  void specialTypes() {
    assertThat(type(core, "io.k8s.apimachinery.pkg.util.intstr.IntOrString")).isEqualTo(
        Yaml.read("""
            scalar: untyped
            list: {elementType: {namedType: __untyped_atomic_}, elementRelationship: atomic}
            map: {elementType: {namedType: __untyped_deduced_}}
            """));
    assertThat(type(core, "io.k8s.apimachinery.pkg.api.resource.Quantity"))
        .isEqualTo(Yaml.read("scalar: untyped"));
    assertThat(type(core, META + "Time")).isEqualTo(Yaml.read("scalar: untyped"));
    assertThat(type(core, META + "MicroTime")).isEqualTo(Yaml.read("scalar: untyped"));
    assertThat(type(core, META + "FieldsV1"))
        .isEqualTo(Yaml.read("map: {elementType: {namedType: __untyped_deduced_}}"));
    assertThat(type(core, "io.k8s.apimachinery.pkg.runtime.RawExtension"))
        .isEqualTo(SmdConverter.untypedAtomicAtom());
    // Secret data is base64 bytes: compared as strings.
    assertThat(map(core, walk(core, CORE + "Secret", "data")))
        .isEqualTo(Yaml.read("elementType: {scalar: string}"));
  }

  @Test
  void intOrStringFieldsAreUntyped() {
    MapValue intOrString = SmdConverter.namedRef("io.k8s.apimachinery.pkg.util.intstr.IntOrString");
    assertThat(walk(core, CORE + "ServicePort", "targetPort")).isEqualTo(intOrString);
    assertThat(walk(apps, "io.k8s.api.apps.v1.RollingUpdateDeployment", "maxSurge"))
        .isEqualTo(intOrString);
    assertThat(SmdSchemas.resolve(core, intOrString).getOrNull("scalar"))
        .isEqualTo(Value.of("untyped"));
  }

  @Test
  void serviceSpecPortsAreKeyedByPortAndProtocol() {
    assertKeyedList(core, walk(core, CORE + "Service", "spec", "ports"), CORE + "ServicePort",
        "port", "protocol");
    assertThat(field(type(core, CORE + "ServicePort"), "protocol").getOrNull("default"))
        .isEqualTo(Value.of("TCP"));
    // An atomic map of strings.
    assertThat(map(core, walk(core, CORE + "ServiceSpec", "selector")))
        .isEqualTo(Yaml.read("{elementType: {scalar: string}, elementRelationship: atomic}"));
  }

  @Test
  void deploymentSelectorIsAtomicAndTemplateVolumesAreKeyed() {
    String deployment = "io.k8s.api.apps.v1.Deployment";
    MapValue selector = walk(apps, deployment, "spec", "selector");
    assertThat(selector).isEqualTo(SmdConverter.namedRef(META + "LabelSelector"));
    assertThat(map(apps, selector).getOrNull("elementRelationship")).isEqualTo(ATOMIC);
    assertKeyedList(apps, walk(apps, deployment, "spec", "template", "spec", "volumes"),
        CORE + "Volume", "name");
    assertKeyedList(apps, walk(apps, deployment, "spec", "template", "spec", "containers", "[]",
        "env"), CORE + "EnvVar", "name");
    assertThat(field(type(apps, "io.k8s.api.apps.v1.DeploymentSpec"), "template")
        .getOrNull("default")).isEqualTo(MapValue.empty());
    // retainKeys alone does not make a list associative; on a struct it changes nothing.
    assertThat(walk(apps, deployment, "spec", "strategy"))
        .isEqualTo(SmdConverter.namedRef("io.k8s.api.apps.v1.DeploymentStrategy"));
  }

  @Test
  void jobTemplate() {
    String job = "io.k8s.api.batch.v1.Job";
    assertThat(walk(batch, job, "spec", "template"))
        .isEqualTo(SmdConverter.namedRef(CORE + "PodTemplateSpec"));
    assertKeyedList(batch, walk(batch, job, "spec", "template", "spec", "containers"),
        CORE + "Container", "name");
    assertThat(walk(batch, job, "spec", "template", "metadata"))
        .isEqualTo(SmdConverter.namedRef(META + "ObjectMeta"));
    assertThat(walk(batch, "io.k8s.api.batch.v1.CronJob", "spec", "jobTemplate", "spec",
        "template")).isEqualTo(SmdConverter.namedRef(CORE + "PodTemplateSpec"));
  }

  @Test
  void fieldLevelMapTypeOverridesTheNamedType() {
    // PersistentVolumeSpec.claimRef is a granular ObjectReference; ObjectReference is atomic.
    assertThat(walk(core, CORE + "PersistentVolumeSpec", "claimRef")).isEqualTo(Yaml.read(
        "{namedType: io.k8s.api.core.v1.ObjectReference, elementRelationship: separable}"));
    assertThat(map(core, SmdConverter.namedRef(CORE + "ObjectReference"))
        .getOrNull("elementRelationship")).isEqualTo(ATOMIC);
  }

  @Test
  void sharedTypesConvertTheSameInEveryDocument() {
    for (String name : new String[] {CORE + "PodSpec", CORE + "Container", META + "ObjectMeta"}) {
      assertThat(type(apps, name)).as(name).isEqualTo(type(core, name));
      assertThat(type(batch, name)).as(name).isEqualTo(type(core, name));
    }
  }
}
