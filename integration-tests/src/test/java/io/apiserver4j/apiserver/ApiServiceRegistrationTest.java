/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.storage.InMemoryStore;
import io.apiserver4j.storage.Store;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The APIServices kube-apiserver's aggregator registers (autoregister and crdRegistration
 * controllers, local availability) and the rest of the bootstrap state of a bare server.
 */
class ApiServiceRegistrationTest {
  private static final GroupVersionResource API_SERVICES =
      new GroupVersionResource("apiregistration.k8s.io", "v1", "apiservices");
  private static final GroupVersionResource CRDS =
      new GroupVersionResource("apiextensions.k8s.io", "v1", "customresourcedefinitions");

  /** kube-apiserver 1.36's GA group versions with their apiVersionPriorities entries. */
  private static final Map<String, List<Integer>> EXPECTED = expected();

  private static Map<String, List<Integer>> expected() {
    Map<String, List<Integer>> m = new LinkedHashMap<>();
    m.put("v1.", List.of(18000, 1));
    m.put("v1.apps", List.of(17800, 15));
    m.put("v1.events.k8s.io", List.of(17750, 15));
    m.put("v1.authentication.k8s.io", List.of(17700, 15));
    m.put("v1.authorization.k8s.io", List.of(17600, 15));
    m.put("v1.autoscaling", List.of(17500, 15));
    m.put("v2.autoscaling", List.of(17500, 30));
    m.put("v1.batch", List.of(17400, 15));
    m.put("v1.certificates.k8s.io", List.of(17300, 15));
    m.put("v1.networking.k8s.io", List.of(17200, 15));
    m.put("v1.policy", List.of(17100, 15));
    m.put("v1.rbac.authorization.k8s.io", List.of(17000, 15));
    m.put("v1.storage.k8s.io", List.of(16800, 15));
    m.put("v1.apiextensions.k8s.io", List.of(16700, 15));
    m.put("v1.admissionregistration.k8s.io", List.of(16700, 15));
    m.put("v1.scheduling.k8s.io", List.of(16600, 15));
    m.put("v1.coordination.k8s.io", List.of(16500, 15));
    m.put("v1.node.k8s.io", List.of(16300, 15));
    m.put("v1.discovery.k8s.io", List.of(16200, 15));
    m.put("v1.resource.k8s.io", List.of(16200, 21));
    m.put("v1.flowcontrol.apiserver.k8s.io", List.of(16100, 21));
    m.put("v1.apiregistration.k8s.io", null);
    return m;
  }

  @Test
  void aBareServerRegistersAnApiServicePerServedGroupVersion() {
    try (ApiServer server = ApiServer.builder().build()) {
      Map<String, MapValue> byName = new LinkedHashMap<>();
      for (MapValue a : server.resources(API_SERVICES).list()) {
        byName.put(Meta.metaString(a, "name"), a);
      }
      // apiregistration.k8s.io/v1 is the aggregator's own group: no entry in the table, so
      // kube skips it ("Skipping APIService creation")
      List<String> expectedNames = EXPECTED.entrySet().stream()
          .filter(e -> e.getValue() != null).map(Map.Entry::getKey).toList();
      assertThat(byName.keySet()).containsExactlyInAnyOrderElementsOf(expectedNames);
      for (String name : expectedNames) {
        MapValue a = byName.get(name);
        int dot = name.indexOf('.');
        assertThat(Nested.str(a, "spec", "version")).isEqualTo(name.substring(0, dot));
        assertThat(Nested.str(a, "spec", "group")).isEqualTo(name.substring(dot + 1));
        assertThat(Nested.integer(a, "spec", "groupPriorityMinimum"))
            .as(name).isEqualTo(EXPECTED.get(name).get(0).longValue());
        assertThat(Nested.integer(a, "spec", "versionPriority"))
            .as(name).isEqualTo(EXPECTED.get(name).get(1).longValue());
        assertThat(Meta.labels(a))
            .containsEntry("kube-aggregator.kubernetes.io/automanaged", "onstart");
        assertThat(Nested.has(a, "spec", "service")).isFalse();
        assertAvailableLocally(a);
      }
    }
  }

  @Test
  void aBareServerStartsWithKubesBootstrapObjects() {
    try (ApiServer server = ApiServer.builder().build()) {
      assertThat(server.resources("v1", "namespaces").list().stream()
          .map(n -> Meta.metaString(n, "name")))
          .containsExactlyInAnyOrder("default", "kube-system", "kube-public", "kube-node-lease");
      MapValue svc = server.resources("v1", "services").namespace("default").get("kubernetes");
      // the first address of kube-apiserver's default --service-cluster-ip-range (10.0.0.0/24)
      assertThat(Nested.str(svc, "spec", "clusterIP")).isEqualTo("10.0.0.1");
      assertThat(Json.write(Nested.getOrNull(svc, "spec", "ports")))
          .contains("\"port\":443").contains("\"targetPort\":6443");
      assertThat(server.resources("v1", "configmaps").namespace("kube-system")
          .find("extension-apiserver-authentication")).isPresent();
      assertThat(server.resources("scheduling.k8s.io/v1", "priorityclasses")
          .find("system-cluster-critical")).isPresent();
    }
  }

  @Test
  void optingOutLeavesTheStoreEmpty() {
    try (ApiServer server = ApiServer.builder().bootstrap(false).build()) {
      assertThat(server.resources("v1", "namespaces").list()).isEmpty();
      assertThat(server.resources(API_SERVICES).list()).isEmpty();
    }
  }

  @Test
  void theEndpointsFollowTheServerWhenBootstrapRunsAgainWithItsPort() {
    try (ApiServer server = ApiServer.builder().build()) {
      assertThat(BootstrapObjects.ensure(server, "127.0.0.1", 34567)).isEmpty();
      MapValue svc = server.resources("v1", "services").namespace("default").get("kubernetes");
      assertThat(Json.write(Nested.getOrNull(svc, "spec", "ports")))
          .contains("\"targetPort\":34567");
      MapValue ep = server.resources("v1", "endpoints").namespace("default").get("kubernetes");
      assertThat(Json.write(ep.getOrNull("subsets"))).contains("\"port\":34567");
      MapValue slice = server.resources("discovery.k8s.io/v1", "endpointslices")
          .namespace("default").get("kubernetes");
      assertThat(Json.write(slice.getOrNull("ports"))).contains("\"port\":34567");
    }
  }

  @Test
  void aRestartKeepsUserApiServicesAndRestoresManagedSpecs() {
    Store store = InMemoryStore.create();
    try (ApiServer first = ApiServer.builder().store(store).build()) {
      ResourceClient apiServices = first.resources(API_SERVICES);
      MapValue apps = apiServices.get("v1.apps");
      apiServices.update(Nested.set(apps, Value.of(1), "spec", "versionPriority"));
      apiServices.create(Yaml.read("""
          apiVersion: apiregistration.k8s.io/v1
          kind: APIService
          metadata: {name: v1alpha1.example.com}
          spec: {group: example.com, version: v1alpha1, groupPriorityMinimum: 5,
                 versionPriority: 5}
          """));
      // a spurious automanaged one: nobody wants it, so the next start deletes it
      apiServices.create(Yaml.read("""
          apiVersion: apiregistration.k8s.io/v1
          kind: APIService
          metadata:
            name: v9.gone.example.com
            labels: {kube-aggregator.kubernetes.io/automanaged: onstart}
          spec: {group: gone.example.com, version: v9, groupPriorityMinimum: 5,
                 versionPriority: 5}
          """));
      // a local APIService written by a user is available as well
      assertAvailableLocally(apiServices.get("v1alpha1.example.com"));
    }
    try (ApiServer second = ApiServer.builder().store(store).build()) {
      ResourceClient apiServices = second.resources(API_SERVICES);
      assertThat(Nested.integer(apiServices.get("v1.apps"), "spec", "versionPriority"))
          .isEqualTo(15L);
      assertThat(apiServices.find("v1alpha1.example.com")).isPresent();
      assertThat(apiServices.find("v9.gone.example.com")).isEmpty();
    } finally {
      store.close();
    }
  }

  @Test
  void eachServedCrdVersionGetsAnApiServiceThatGoesWithIt() {
    try (ApiServer server = ApiServer.builder().build()) {
      ResourceClient crds = server.resources(CRDS);
      ResourceClient apiServices = server.resources(API_SERVICES);
      crds.create(Yaml.read("""
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata: {name: gizmos.example.com}
          spec:
            group: example.com
            names: {plural: gizmos, singular: gizmo, kind: Gizmo}
            scope: Namespaced
            versions:
            - {name: v1, served: true, storage: true,
               schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
            - {name: v1beta1, served: false, storage: false,
               schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
          """));
      MapValue a = apiServices.get("v1.example.com");
      assertThat(Meta.labels(a)).containsEntry("kube-aggregator.kubernetes.io/automanaged", "true");
      assertThat(Nested.integer(a, "spec", "groupPriorityMinimum")).isEqualTo(1000L);
      assertThat(Nested.integer(a, "spec", "versionPriority")).isEqualTo(100L);
      assertAvailableLocally(a);
      assertThat(apiServices.find("v1beta1.example.com")).isEmpty();

      // serving v1beta1 registers it; no longer serving it removes it again
      crds.patch("gizmos.example.com", PatchType.JSON_PATCH, """
          [{"op": "replace", "path": "/spec/versions/1/served", "value": true}]""");
      assertThat(apiServices.find("v1beta1.example.com")).isPresent();
      crds.patch("gizmos.example.com", PatchType.JSON_PATCH, """
          [{"op": "replace", "path": "/spec/versions/1/served", "value": false}]""");
      assertThat(apiServices.find("v1beta1.example.com")).isEmpty();

      // the APIService goes once the CRD, and the objects it took with it, are gone
      server.resources(new GroupVersionResource("example.com", "v1", "gizmos"))
          .namespace("default").create(Yaml.read("""
              apiVersion: example.com/v1
              kind: Gizmo
              metadata: {name: g1, finalizers: [example.com/hold]}
              """));
      crds.delete("gizmos.example.com");
      assertThat(apiServices.find("v1.example.com")).isPresent();
      ResourceClient gizmos = server.resources(
          new GroupVersionResource("example.com", "v1", "gizmos")).namespace("default");
      gizmos.patch("g1", PatchType.MERGE_PATCH, "{\"metadata\":{\"finalizers\":null}}");
      assertThat(crds.find("gizmos.example.com")).isEmpty();
      assertThat(apiServices.find("v1.example.com")).isEmpty();
    }
  }

  private static void assertAvailableLocally(MapValue apiService) {
    List<Value> conditions = Nested.list(apiService, "status", "conditions");
    assertThat(conditions).hasSize(1);
    MapValue c = (MapValue) conditions.get(0);
    assertThat(Meta.string(c, "type")).isEqualTo("Available");
    assertThat(Meta.string(c, "status")).isEqualTo("True");
    assertThat(Meta.string(c, "reason")).isEqualTo("Local");
    assertThat(Meta.string(c, "message")).isEqualTo("Local APIServices are always available");
    assertThat(Meta.string(c, "lastTransitionTime")).isNotEmpty();
  }
}
