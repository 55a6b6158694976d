/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KubeApiTest {

  @Test
  void servesTheResourcesOfKube136() {
    List<KubeResource> all = KubeApi.resources();
    // api/README.md: 68 resources and 45 subresources in 22 group versions
    assertThat(all).hasSize(68);
    assertThat(all.stream().mapToInt(r -> r.subresources().size()).sum()).isEqualTo(45);
    assertThat(all.stream().map(r -> r.kind().groupVersion()).distinct()).hasSize(22);
    assertThat(all.get(0).kind().group()).isEmpty();
  }

  @Test
  void deploymentsAsDiscoveryShowsThem() {
    KubeResource d = find("apps", "deployments");
    assertThat(d.kind()).isEqualTo(new GroupVersionKind("apps", "v1", "Deployment"));
    assertThat(d.singular()).isEqualTo("deployment");
    assertThat(d.shortNames()).containsExactly("deploy");
    assertThat(d.categories()).containsExactly("all");
    assertThat(d.namespaced()).isTrue();
    assertThat(d.schemaType()).isEqualTo("io.k8s.api.apps.v1.Deployment");
    assertThat(d.subresource("scale").orElseThrow().kind())
        .isEqualTo(new GroupVersionKind("autoscaling", "v1", "Scale"));
    assertThat(d.subresource("status").orElseThrow().verbs())
        .containsExactly("get", "patch", "update");
  }

  @Test
  void podsHaveResizeAlthoughTheOldCoreDiscoveryFileLacksIt() {
    KubeResource pods = find("", "pods");
    assertThat(pods.subresources()).extracting(KubeSubresource::name).containsExactly(
        "attach", "binding", "ephemeralcontainers", "eviction", "exec", "log", "portforward",
        "proxy", "resize", "status");
    assertThat(pods.subresource("resize").orElseThrow().verbs())
        .containsExactly("get", "patch", "update");
    assertThat(pods.subresource("eviction").orElseThrow().kind())
        .isEqualTo(new GroupVersionKind("policy", "v1", "Eviction"));
  }

  /**
   * The group-version-kind kube-apiserver 1.36 stores a resource in, where it is not the one
   * served: the {@code ExpectedGVK}s of kube's {@code test/integration/etcd/data.go} for the
   * resources a 1.36 server serves (CRDs at apiextensions v1beta1, events.k8s.io events as core
   * Events, every HorizontalPodAutoscaler at autoscaling/v2, MutatingAdmissionPolicies and their
   * bindings at v1beta1 in the release they went GA). EndpointSlices have no ExpectedGVK there:
   * they are stored at discovery.k8s.io/v1.
   */
  private static final Map<String, String> KUBE_STORAGE_GVK = Map.of(
      "apiextensions.k8s.io/customresourcedefinitions",
      "apiextensions.k8s.io/v1beta1/CustomResourceDefinition",
      "events.k8s.io/events", "/v1/Event",
      "autoscaling/horizontalpodautoscalers", "autoscaling/v2/HorizontalPodAutoscaler",
      "admissionregistration.k8s.io/mutatingadmissionpolicies",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicy",
      "admissionregistration.k8s.io/mutatingadmissionpolicybindings",
      "admissionregistration.k8s.io/v1beta1/MutatingAdmissionPolicyBinding");

  /**
   * Every storageVersionHash is kube-apiserver's {@code StorageVersionHash} (base64 of the first
   * 8 bytes of sha256("group/version/Kind")) of the resource's kube 1.36 storage version; the
   * resources without one are those kube shows none for (not watchable: reviews, bindings).
   */
  @Test
  void storageVersionHashesAreKubesHashOfTheStorageVersion() throws Exception {
    for (KubeResource r : KubeApi.resources()) {
      if (r.storageVersionHash().isEmpty()) {
        assertThat(r.verbs()).as(r.plural()).doesNotContain("watch");
        continue;
      }
      String storage = KUBE_STORAGE_GVK.getOrDefault(r.kind().group() + "/" + r.plural(),
          r.kind().group() + "/" + r.kind().version() + "/" + r.kind().kind());
      assertThat(r.storageVersionHash()).as(r.resource() + " stored as " + storage)
          .isEqualTo(hash(storage));
    }
    // kube's own discovery shows these (api/discovery in kubernetes/kubernetes)
    assertThat(hash("/v1/Pod")).isEqualTo("xPOwRZ+Yhw8=");
    assertThat(hash("apps/v1/Deployment")).isEqualTo("8aSe+NMegvE=");
  }

  private static String hash(String gvk) throws Exception {
    byte[] sum = MessageDigest.getInstance("SHA-256").digest(gvk.getBytes(StandardCharsets.UTF_8));
    return Base64.getEncoder().encodeToString(Arrays.copyOf(sum, 8));
  }

  @Test
  void everyKindHasItsSchemaAndDefinition() {
    Set<String> types = new HashSet<>();
    for (Value t : ((ListValue) KubeApi.schema().smd().getOrNull("types")).items()) {
      types.add(((StringValue) ((MapValue) t).getOrNull("name")).value());
    }
    for (KubeResource r : KubeApi.resources()) {
      assertThat(types).contains(r.schemaType());
      assertThat(KubeApi.openApiDefinitions().containsKey(r.schemaType())).isTrue();
      r.subresources().forEach(s -> s.schemaTypeIfDefined().ifPresent(t ->
          assertThat(types).contains(t)));
    }
    assertThat(types).contains("io.k8s.api.autoscaling.v1.Scale",
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps");
  }

  @Test
  void typesAreListedWithoutParsingAndReadOneAtATime() {
    for (KubeVersion v : KubeVersion.all()) {
      KubeSchema schema = KubeApi.schema(v);
      List<String> names = schema.typeNames();
      assertThat(names).isSorted().doesNotHaveDuplicates();
      ListValue all = (ListValue) schema.smd().getOrNull("types");
      assertThat(all.size()).isEqualTo(names.size());
      for (int i = 0; i < names.size(); i++) {
        MapValue one = schema.typeDefinition(names.get(i)).orElseThrow();
        assertThat(one).as(names.get(i)).isEqualTo(all.get(i));
        assertThat(((StringValue) one.getOrNull("name")).value()).isEqualTo(names.get(i));
      }
      assertThat(schema.typeDefinition("io.k8s.api.core.v1.NoSuchType")).isEmpty();
    }
    MapValue configMap = KubeApi.schema().typeDefinition("io.k8s.api.core.v1.ConfigMap")
        .orElseThrow();
    assertThat(((MapValue) configMap.getOrNull("map")).getOrNull("fields")).isNotNull();
  }

  @Test
  void patchTagsIncludeRetainKeys() {
    // from the Go tags of DeploymentSpec.Strategy and PodSpec.Volumes
    assertThat(KubeApi.schema().patchTags().get("io.k8s.api.apps.v1.DeploymentSpec"))
        .containsEntry("strategy", "retainKeys");
    assertThat(KubeApi.schema().patchTags().get("io.k8s.api.core.v1.PodSpec"))
        .containsEntry("volumes", "merge,retainKeys/name")
        .containsEntry("containers", "merge/name");
  }

  @Test
  void zerosAreWhatGoEncodes() {
    // ObjectMeta is a non-pointer struct in every kind; Container.Name has no omitempty;
    // PodSpec.Containers is a slice without omitempty.
    assertThat(KubeApi.schema().zeros().get("io.k8s.api.core.v1.Pod"))
        .containsEntry("metadata", MapValue.empty());
    assertThat(KubeApi.schema().zeros().get("io.k8s.api.core.v1.Container"))
        .containsEntry("name", Value.of(""));
    assertThat(KubeApi.schema().zeros().get("io.k8s.api.core.v1.PodSpec"))
        .containsEntry("containers", Value.nullValue());
  }

  @Test
  void goTypesAreTheGoFieldTypes() {
    // k8s.io/api apps/v1 DeploymentSpec.Replicas *int32, core/v1 Secret.Data map[string][]byte,
    // LinuxContainerUser.SupplementalGroups []int64, apimachinery ObjectMeta.Generation int64,
    // apiextensions JSONSchemaProps.Maximum *float64
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.apps.v1.DeploymentSpec"))
        .containsEntry("replicas", "int32").doesNotContainKey("selector");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.core.v1.Secret"))
        .containsEntry("data", "map[string][]uint8");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.core.v1.LinuxContainerUser"))
        .containsEntry("supplementalGroups", "[]int64");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"))
        .containsEntry("generation", "int64");
    assertThat(KubeApi.schema().goTypes().get(
        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"))
        .containsEntry("maximum", "float64");
    // core/v1 ContainerPort.Protocol Protocol, Capabilities.Add []Capability,
    // ResourceRequirements.Limits ResourceList; ObjectMeta.UID types.UID
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.core.v1.ContainerPort"))
        .containsEntry("protocol", "v1.Protocol").containsEntry("containerPort", "int32");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.core.v1.Capabilities"))
        .containsEntry("add", "[]v1.Capability");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.api.core.v1.ResourceRequirements"))
        .containsEntry("limits", "v1.ResourceList");
    assertThat(KubeApi.schema().goTypes().get("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"))
        .containsEntry("uid", "types.UID");
  }

  private static KubeResource find(String group, String plural) {
    return KubeApi.resources().stream()
        .filter(r -> r.kind().group().equals(group) && r.plural().equals(plural))
        .findFirst().orElseThrow();
  }
}
