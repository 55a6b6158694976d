/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The StorageObjectInUseProtection plugin with kube-controller-manager's pvc-protection and
 * pv-protection controllers, as kube's pvc_protection_controller_test and
 * pv_protection_controller_test expect: a deleted claim keeps {@code kubernetes.io/pvc-protection}
 * while a Pod that has not finished uses it, and goes once none does; a deleted volume keeps
 * {@code kubernetes.io/pv-protection} while Bound.
 */
class StorageProtectionTest {
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource PVS =
      new GroupVersionResource("", "v1", "persistentvolumes");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  // the Pod here is not about its ServiceAccount: no ServiceAccount plugin
  private final ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount")
      .build();

  @AfterEach
  void close() {
    server.close();
  }

  private MapValue create(GroupVersionResource r, String ns, String yaml) {
    ApiRequest.Builder b = ApiRequest.builder(ApiRequest.Verb.CREATE, r).body(Yaml.read(yaml));
    return server.handle((ns.isEmpty() ? b : b.namespace(ns)).build()).orThrow();
  }

  private void delete(GroupVersionResource r, String ns, String name) {
    ApiRequest.Builder b = ApiRequest.builder(ApiRequest.Verb.DELETE, r).name(name);
    server.handle((ns.isEmpty() ? b : b.namespace(ns)).build()).orThrow();
  }

  private Optional<MapValue> get(GroupVersionResource r, String ns, String name) {
    ApiRequest.Builder b = ApiRequest.builder(ApiRequest.Verb.GET, r).name(name);
    var resp = server.handle((ns.isEmpty() ? b : b.namespace(ns)).build());
    return resp.code() == 404 ? Optional.empty() : Optional.of(resp.orThrow());
  }

  /** Waits for the deletion of {@code name} in a watch opened before the trigger ran. */
  private static void awaitDeleted(ApiWatch w, String name) throws InterruptedException {
    while (true) {
      Optional<ApiWatchEvent> e = w.poll(Duration.ofSeconds(60));
      assertThat(e).as("the deletion of " + name).isPresent();
      if (e.get().type().equals("DELETED")
          && Meta.metaString(e.get().object(), "name").equals(name)) {
        return;
      }
    }
  }

  @Test
  void aClaimInUseStaysUntilItsPodFinishes() throws Exception {
    String claim = "{apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: %s},"
        + " spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}";
    assertThat(Meta.finalizers(create(PVCS, "default", claim.formatted("data"))))
        .containsExactly("kubernetes.io/pvc-protection");
    create(PVCS, "default", claim.formatted("marker"));
    create(PODS, "default", "{apiVersion: v1, kind: Pod, metadata: {name: user}, spec:"
        + " {containers: [{name: c, image: nginx}], volumes: [{name: v,"
        + " persistentVolumeClaim: {claimName: data}}]}}");
    try (ApiWatch w = server.watch(ApiRequest.builder(ApiRequest.Verb.WATCH, PVCS)
        .namespace("default").build())) {
      delete(PVCS, "default", "data");
      delete(PVCS, "default", "marker");
      // one worker takes the claims in the order they changed: once the unused marker is gone,
      // the used claim was judged, and kept
      awaitDeleted(w, "marker");
      MapValue data = get(PVCS, "default", "data").orElseThrow();
      assertThat(Nested.has(data, "metadata", "deletionTimestamp")).isTrue();
      assertThat(Meta.finalizers(data)).containsExactly("kubernetes.io/pvc-protection");

      // a Pod that has finished no longer holds its claims
      MapValue pod = get(PODS, "default", "user").orElseThrow();
      server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("default")
          .name("user").subresource("status")
          .body(pod.with("status", Yaml.read("{phase: Succeeded}"))).build()).orThrow();
      awaitDeleted(w, "data");
    }
  }

  @Test
  void aBoundVolumeStaysAndAnUnboundOneGoes() throws Exception {
    String volume = "{apiVersion: v1, kind: PersistentVolume, metadata: {name: %s}, spec:"
        + " {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /tmp/%s}}}";
    assertThat(Meta.finalizers(create(PVS, "", volume.formatted("bound", "bound"))))
        .containsExactly("kubernetes.io/pv-protection");
    MapValue bound = get(PVS, "", "bound").orElseThrow();
    server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PVS).name("bound")
        .subresource("status").body(bound.with("status", Yaml.read("{phase: Bound}"))).build())
        .orThrow();
    create(PVS, "", volume.formatted("free", "free"));
    try (ApiWatch w = server.watch(ApiRequest.builder(ApiRequest.Verb.WATCH, PVS).build())) {
      delete(PVS, "", "bound");
      delete(PVS, "", "free");
      awaitDeleted(w, "free");
      assertThat(Meta.finalizers(get(PVS, "", "bound").orElseThrow()))
          .containsExactly("kubernetes.io/pv-protection");
    }
  }
}
