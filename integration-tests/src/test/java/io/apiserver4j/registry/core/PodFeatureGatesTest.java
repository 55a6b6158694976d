/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.kubeapi.FeatureGates;
import io.apiserver4j.kubeapi.KubeVersion;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * kube's {@code dropDisabledPodFields} per gate, through the server's feature gates: a field
 * whose gate is off at the emulated release, or turned off with {@code --feature-gates}, is
 * dropped on create and kept on update when the stored Pod already uses it.
 */
class PodFeatureGatesTest {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  private static MapValue pod(String name, String spec) {
    return (MapValue) Yaml.read("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name
        + "}\nspec:\n  containers:\n  - {name: c, image: nginx}\n" + spec);
  }

  private static MapValue create(ApiServer server, MapValue pod) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace("default")
        .body(pod).build()).orThrow();
  }

  private static MapValue update(ApiServer server, MapValue pod) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("default")
        .name(Nested.str(pod, "metadata", "name")).body(pod).build()).orThrow();
  }

  private static final String POD_LEVEL_RESOURCES =
      "  resources: {requests: {cpu: 100m}, limits: {cpu: 200m}}\n";

  /**
   * PodLevelResources off at 1.36: InPlacePodLevelResourcesVerticalScaling, on by default there,
   * depends on it, so kube refuses the one without the other.
   */
  private static final String LEVEL_RESOURCES_OFF =
      "PodLevelResources=false,InPlacePodLevelResourcesVerticalScaling=false";

  @Test
  void podLevelResourcesAreKeptByDefaultIn136AndDroppedWhenTurnedOff() {
    try (ApiServer server = ApiServer.builder().build()) {
      MapValue created = create(server, pod("pod-on", POD_LEVEL_RESOURCES));
      assertThat(Nested.str(created, "spec", "resources", "requests", "cpu")).isEqualTo("100m");
    }
    try (ApiServer server = ApiServer.builder().featureGates(LEVEL_RESOURCES_OFF).build()) {
      assertThat(server.featureGates().enabled("PodLevelResources")).isFalse();
      MapValue created = create(server, pod("pod-off", POD_LEVEL_RESOURCES));
      assertThat(Nested.has(created, "spec", "resources")).isFalse();
    }
  }

  /** PodLevelResources is alpha (off) in 1.33 and beta (on) from 1.34. */
  @Test
  void podLevelResourcesAreDroppedByA133Server() {
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33).build()) {
      MapValue created = create(server, pod("p", POD_LEVEL_RESOURCES));
      assertThat(Nested.has(created, "spec", "resources")).isFalse();
    }
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_34).build()) {
      MapValue created = create(server, pod("p", POD_LEVEL_RESOURCES));
      assertThat(Nested.str(created, "spec", "resources", "limits", "cpu")).isEqualTo("200m");
    }
  }

  /** A stored Pod that uses the field keeps it through an update on a server with it off. */
  @Test
  void aFieldInUseIsKeptOnUpdate() {
    Store store = InMemoryStore.create();
    MapValue stored;
    try (ApiServer on = ApiServer.builder().store(store).build()) {
      stored = create(on, pod("used", POD_LEVEL_RESOURCES));
      create(on, pod("unused", ""));
    }
    try (ApiServer off = ApiServer.builder().store(store).featureGates(LEVEL_RESOURCES_OFF)
        .build()) {
      MapValue updated = update(off, Nested.set(stored, Yaml.read("{a: b}"), "metadata",
          "labels"));
      assertThat(Nested.str(updated, "spec", "resources", "requests", "cpu")).isEqualTo("100m");
      MapValue unused = off.handle(ApiRequest.builder(ApiRequest.Verb.GET, PODS)
          .namespace("default").name("unused").build()).orThrow();
      MapValue added = update(off, Nested.set(unused,
          Yaml.read("{requests: {cpu: 100m}}"), "spec", "resources"));
      assertThat(Nested.has(added, "spec", "resources")).isFalse();
    }
  }

  private static final String CLAIMS =
      "  resourceClaims:\n  - {name: gpu, resourceClaimName: c1}\n";

  /** DynamicResourceAllocation is beta and off in 1.33, GA from 1.34, locked on from 1.35. */
  @Test
  void resourceClaimsFollowDynamicResourceAllocation() {
    MapValue pod = (MapValue) Yaml.read("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        + "  containers:\n  - {name: c, image: nginx, resources: {claims: [{name: gpu}]}}\n"
        + CLAIMS);
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33).build()) {
      MapValue created = create(server, pod);
      assertThat(Nested.has(created, "spec", "resourceClaims")).isFalse();
      assertThat(Nested.list(created, "spec", "containers").get(0))
          .satisfies(c -> assertThat(Nested.has(c, "resources", "claims")).isFalse());
    }
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_33)
        .featureGates("DynamicResourceAllocation=true").build()) {
      MapValue created = create(server, pod);
      assertThat(Nested.list(created, "spec", "resourceClaims")).hasSize(1);
    }
    try (ApiServer server = ApiServer.builder().build()) {
      assertThat(Nested.list(create(server, pod), "spec", "resourceClaims")).hasSize(1);
    }
    assertThatThrownBy(() -> ApiServer.builder().featureGates("DynamicResourceAllocation=false")
        .build()).isInstanceOf(IllegalArgumentException.class).hasMessage(
            "cannot set feature gate DynamicResourceAllocation to false, feature is locked to"
                + " true");
  }

  @Test
  void containerRestartPolicyIsDroppedWhenContainerRestartRulesIsOff() {
    String spec = "  initContainers:\n  - {name: sidecar, image: nginx, restartPolicy: Always}\n";
    try (ApiServer server = ApiServer.builder().featureGates("ContainerRestartRules=false")
        .build()) {
      MapValue created = create(server, pod("p", spec));
      assertThat(Nested.str((MapValue) Nested.list(created, "spec", "initContainers").get(0),
          "restartPolicy")).isEqualTo("Always");
    }
    MapValue withPolicy = (MapValue) Yaml.read("apiVersion: v1\nkind: Pod\nmetadata: {name: q}\n"
        + "spec:\n  restartPolicy: Never\n"
        + "  containers:\n  - {name: c, image: nginx, restartPolicy: Never}\n");
    try (ApiServer server = ApiServer.builder().featureGates("ContainerRestartRules=false")
        .build()) {
      MapValue created = create(server, withPolicy);
      assertThat(Nested.has((MapValue) Nested.list(created, "spec", "containers").get(0),
          "restartPolicy")).isFalse();
    }
  }

  @Test
  void hostnameOverrideIsDroppedWhenItsGateIsOff() {
    String spec = "  hostnameOverride: my-host\n";
    try (ApiServer server = ApiServer.builder().featureGates("HostnameOverride=false").build()) {
      assertThat(Nested.has(create(server, pod("p", spec)), "spec", "hostnameOverride")).isFalse();
    }
    // alpha (off) in 1.34, beta (on) from 1.35
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.V1_34).build()) {
      assertThat(Nested.has(create(server, pod("p", spec)), "spec", "hostnameOverride")).isFalse();
    }
  }

  /** EnvFiles is alpha (off) in 1.34 and beta (on) from 1.35, as kube 1.35 lists it. */
  @Test
  void fileKeyRefIsDroppedUnlessInUse() {
    MapValue spec = (MapValue) Yaml.read("containers:\n- name: c\n  env:\n  - name: A\n"
        + "    valueFrom: {fileKeyRef: {volumeName: v, path: a.env, key: A}}\n");
    FeatureGates at134 = FeatureGates.defaults(KubeVersion.V1_34);
    MapValue dropped = PodDisabledFields.dropFromSpec(spec, null, at134);
    assertThat(Nested.getOrNull(dropped, "containers")).isEqualTo(Yaml.read(
        "[{name: c, env: [{name: A, valueFrom: {}}]}]"));
    assertThat(PodDisabledFields.dropFromSpec(spec, spec, at134)).isEqualTo(spec);
    assertThat(PodDisabledFields.dropFromSpec(spec, null,
        FeatureGates.defaults(KubeVersion.V1_35))).isEqualTo(spec);
    MapValue pod = MapValue.ofEntries("spec", spec);
    assertThat(PodDisabledFields.drop(pod, Optional.of(pod), at134)).isEqualTo(pod);
  }
}
