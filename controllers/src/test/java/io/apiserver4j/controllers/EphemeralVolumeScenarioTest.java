/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The ephemeral-volume controller on a server. The table is kube's
 * pkg/controller/volume/ephemeral/controller_test.go {@code TestSyncHandler} (its
 * {@code create-conflict} case needs a fake client's injected Conflict and is left out); the
 * scenario follows a claim from a Pod's volume to a bound volume and back to nothing.
 */
class EphemeralVolumeScenarioTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PVCS =
      new GroupVersionResource("", "v1", "persistentvolumeclaims");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource EVENTS = new GroupVersionResource("", "v1", "events");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  private void server(String... namespaces) {
    api = scenario.server(namespaces);
  }

  private void startControllers(String flags) {
    controllers = scenario.start(flags);
  }

  private static String pod(String name, boolean ephemeral, String extraMeta) {
    String volumes = ephemeral ? ",\"volumes\":[{\"name\":\"ephemeral-volume\",\"ephemeral\":"
        + "{\"volumeClaimTemplate\":{\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
        + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}}}]" : "";
    return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\""
        + extraMeta + "},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]"
        + volumes + "}}";
  }

  private static String claim(String name) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\""
        + name + "\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":"
        + "{\"storage\":\"1Gi\"}}}}";
  }

  /** {@code namespace/name} of every claim, sorted. */
  private List<String> claimKeys() {
    return api.resources(PVCS).list().stream()
        .map(c -> Meta.metaString(c, "namespace") + "/" + Meta.metaString(c, "name"))
        .sorted().toList();
  }

  /** kube's TestSyncHandler cases: the objects, then the claims afterwards. */
  static Stream<Arguments> syncHandlerCases() {
    return Stream.of(
        Arguments.of("create", true, "", List.of(), false,
            List.of("my-namespace/test-pod-ephemeral-volume")),
        Arguments.of("no-such-pod", false, "", List.of(), false, List.of()),
        Arguments.of("pod-deleted", true, ",\"finalizers\":[\"example.com/keep\"]", List.of(),
            true, List.of()),
        Arguments.of("no-volumes", false, "", List.of(), false, List.of()),
        Arguments.of("create-with-other-PVC", true, "",
            List.of("not-my-namespace/test-pod-ephemeral-volume"), false,
            List.of("my-namespace/test-pod-ephemeral-volume",
                "not-my-namespace/test-pod-ephemeral-volume")),
        Arguments.of("wrong-PVC-owner", true, "",
            List.of("my-namespace/test-pod-ephemeral-volume"), false,
            List.of("my-namespace/test-pod-ephemeral-volume")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("syncHandlerCases")
  void syncHandler(String name, boolean podWithEphemeral, String podMeta, List<String> claims,
      boolean deletePod, List<String> expected) {
    server("my-namespace", "not-my-namespace");
    for (String key : claims) {
      String[] parts = key.split("/");
      api.resources(PVCS).namespace(parts[0]).create(Json.read(claim(parts[1])));
    }
    ResourceClient pods = api.resources(PODS).namespace("my-namespace");
    if (!name.equals("no-such-pod")) {
      pods.create(Json.read(pod("test-pod", podWithEphemeral, podMeta)));
      if (deletePod) {
        pods.delete("test-pod");
      }
    }
    startControllers("ephemeral-volume");
    scenario.idle();
    assertThat(claimKeys()).isEqualTo(expected);
    if (name.equals("create")) {
      MapValue pvc = api.resources(PVCS).namespace("my-namespace")
          .get("test-pod-ephemeral-volume");
      assertThat(Nested.getOrNull(pvc, "metadata", "ownerReferences")).isEqualTo(Json.read(
          "[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"test-pod\",\"uid\":\""
              + Meta.metaString(pods.get("test-pod"), "uid") + "\",\"controller\":true,"
              + "\"blockOwnerDeletion\":true}]"));
    }
    if (name.equals("wrong-PVC-owner")) {
      // kube's error, recorded as a FailedBinding Warning on the Pod
      assertThat(api.resources(EVENTS).namespace("my-namespace").list()).anySatisfy(e -> {
        assertThat(Nested.str(e, "reason")).isEqualTo("FailedBinding");
        assertThat(Nested.str(e, "type")).isEqualTo("Warning");
        assertThat(Nested.str(e, "involvedObject", "kind")).isEqualTo("Pod");
        assertThat(Nested.str(e, "source", "component")).isEqualTo("ephemeral_volume");
        assertThat(Nested.str(e, "message")).isEqualTo("ephemeral volume ephemeral-volume: PVC"
            + " my-namespace/test-pod-ephemeral-volume was not created for pod"
            + " my-namespace/test-pod (pod is not owner)");
      });
    }
  }

  /** Waits, on each change a watch delivers, until {@code condition} holds of the list. */
  private void await(ResourceClient client, String what, Predicate<List<MapValue>> condition) {
    ApiWatch watch = client.watch();
    try {
      while (!condition.test(client.list())) {
        assertThat(watch.poll(IDLE)).as(what).isPresent();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    } finally {
      watch.close();
    }
  }

  @Test
  void aPodsEphemeralVolumeGetsAClaimThatIsProvisionedBoundRecreatedAndCollected() {
    server("ns");
    api.resources(new GroupVersionResource("storage.k8s.io", "v1", "storageclasses")).create(Json.read("{\"apiVersion\":"
        + "\"storage.k8s.io/v1\",\"kind\":\"StorageClass\",\"metadata\":{\"name\":\"standard\","
        + "\"annotations\":{\"storageclass.kubernetes.io/is-default-class\":\"true\"}},"
        + "\"provisioner\":\"example.com/simulated\"}"));
    startControllers("ephemeral-volume,persistentvolume-binder,garbagecollector");
    ResourceClient pods = api.resources(PODS).namespace("ns");
    ResourceClient claims = api.resources(PVCS).namespace("ns");
    pods.create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":"
        + "\"web\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}],"
        + "\"volumes\":[{\"name\":\"scratch\",\"ephemeral\":{\"volumeClaimTemplate\":"
        + "{\"metadata\":{\"labels\":{\"app\":\"web\"},\"annotations\":{\"note\":\"x\"}},"
        + "\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"storageClassName\":\"standard\","
        + "\"resources\":{\"requests\":{\"storage\":\"2Gi\"}}}}}}]}}"));
    scenario.idle();

    MapValue pvc = claims.get("web-scratch");
    assertThat(Meta.labels(pvc)).containsEntry("app", "web");
    assertThat(Meta.annotations(pvc)).containsEntry("note", "x");
    assertThat(Nested.str(pvc, "spec", "storageClassName")).isEqualTo("standard");
    assertThat(Nested.str(pvc, "status", "phase")).isEqualTo("Bound");
    assertThat(Nested.str(pvc, "spec", "volumeName")).isNotEmpty();

    // a claim deleted while the Pod names it is made again (once the Pod finished, so that
    // kube's pvc-protection lets the claim go)
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("web")
        .subresource("status").options(UpdateOptions.defaults())
        .body(pods.get("web").with("status", Json.read("{\"phase\":\"Succeeded\"}")))
        .build()).orThrow();
    scenario.idle();
    claims.delete("web-scratch");
    await(claims, "the claim recreated", l -> l.stream().anyMatch(c ->
        Meta.metaString(c, "name").equals("web-scratch")
            && !Meta.metaString(c, "uid").equals(Meta.metaString(pvc, "uid"))));
    scenario.idle();

    // and it goes with its Pod
    pods.delete("web");
    await(claims, "the claim collected", List::isEmpty);
  }
}
