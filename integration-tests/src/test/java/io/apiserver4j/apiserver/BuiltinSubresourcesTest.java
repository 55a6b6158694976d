/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import org.junit.jupiter.api.Test;

/** Subresources of kinds the hand-written schema did not have. */
class BuiltinSubresourcesTest {

  @Test
  void replicationControllerScaleShowsItsLabelSetSelector() {
    try (ApiServer server = ApiServer.builder().build()) {
      GroupVersionResource rcs = new GroupVersionResource("", "v1", "replicationcontrollers");
      server.resources(rcs).namespace("default").create(Json.read("{\"apiVersion\":\"v1\","
          + "\"kind\":\"ReplicationController\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
          + "\"replicas\":2,\"selector\":{\"tier\":\"front\",\"app\":\"web\"},\"template\":{"
          + "\"metadata\":{\"labels\":{\"app\":\"web\",\"tier\":\"front\"}},\"spec\":{"
          + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}}}"));

      ApiResponse scale = server.handle(ApiRequest.builder(ApiRequest.Verb.GET, rcs)
          .namespace("default").name("web").subresource("scale").build());

      // labels.SelectorFromSet(rc.Spec.Selector).String(): sorted k=v pairs
      MapValue body = scale.orThrow();
      assertThat(body.getOrNull("apiVersion")).isEqualTo(Value.of("autoscaling/v1"));
      assertThat(Json.write(body.getOrNull("spec"))).isEqualTo("{\"replicas\":2}");
      assertThat(((MapValue) body.getOrNull("status")).getOrNull("selector"))
          .isEqualTo(Value.of("app=web,tier=front"));
    }
  }

  @Test
  void persistentVolumeClaimStatusIsItsOwnSubresource() {
    try (ApiServer server = ApiServer.builder().build()) {
      GroupVersionResource pvcs = new GroupVersionResource("", "v1", "persistentvolumeclaims");
      MapValue created = server.resources(pvcs).namespace("default").create(Json.read(
          "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":"
              + "\"data\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{"
              + "\"requests\":{\"storage\":\"1Gi\"}}},\"status\":{\"phase\":\"Bound\"}}"));

      // status written with the main resource is dropped, as kube resets it
      assertThat(Json.write(created.getOrNull("status"))).doesNotContain("Bound");
    }
  }
}
