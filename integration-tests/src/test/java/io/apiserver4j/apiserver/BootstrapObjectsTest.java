/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.util.List;
import org.junit.jupiter.api.Test;

class BootstrapObjectsTest {

  @Test
  void createsWhatKubeApiserverWritesAtStartOnce() {
    try (ApiServer server = ApiServer.builder().bootstrap(false).build()) {
      List<String> created = BootstrapObjects.ensure(server, "192.168.0.10", 6443);

      assertThat(created).contains("Namespace//default", "Namespace//kube-system",
          "Namespace//kube-public", "Namespace//kube-node-lease", "Service/default/kubernetes",
          "Endpoints/default/kubernetes", "EndpointSlice/default/kubernetes",
          "ConfigMap/kube-system/extension-apiserver-authentication",
          "PriorityClass//system-node-critical", "PriorityClass//system-cluster-critical");
      assertThat(BootstrapObjects.ensure(server, "192.168.0.10", 6443)).isEmpty();

      // the first IP of the service range (kube-apiserver's default 10.0.0.0/24), port 443 to the secure port
      MapValue svc = server.resources("v1", "services").namespace("default").get("kubernetes");
      assertThat(Json.write(svc.getOrNull("spec"))).contains("\"clusterIP\":\"10.0.0.1\"")
          .contains("\"port\":443").contains("\"targetPort\":6443");
      assertThat(Json.write(server.resources("scheduling.k8s.io/v1", "priorityclasses")
          .get("system-node-critical").getOrNull("value"))).isEqualTo("2000001000");
    }
  }

  @Test
  void theServerWritesItsLoopbackEndpointsWhichClientsMayNot() {
    try (ApiServer server = ApiServer.builder().build()) {
      // the default advertise address is 127.0.0.1, written as kube's reconciler writes it
      MapValue ep = server.resources("v1", "endpoints").namespace("default").get("kubernetes");
      assertThat(Json.write(ep.getOrNull("subsets"))).contains("\"ip\":\"127.0.0.1\"");
      MapValue slice = server.resources("discovery.k8s.io/v1", "endpointslices")
          .namespace("default").get("kubernetes");
      assertThat(Json.write(slice.getOrNull("endpoints"))).contains("\"127.0.0.1\"");

      // a client writing the same address gets kube's ValidateNonSpecialIP error
      ApiResponse r = server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE,
          new io.apiserver4j.core.GroupVersionResource("", "v1", "endpoints"))
          .namespace("default").body(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Endpoints\","
              + "\"metadata\":{\"name\":\"mine\"},\"subsets\":[{\"addresses\":[{\"ip\":"
              + "\"127.0.0.1\"}]}]}")).build());
      assertThat(r.code()).isEqualTo(422);
      assertThat(io.apiserver4j.core.Nested.str(r.body(), "message")).isEqualTo("Endpoints"
          + " \"mine\" is invalid: subsets[0].addresses[0].ip: Invalid value: \"127.0.0.1\": may"
          + " not be in the loopback range (127.0.0.0/8, ::1/128)");

      // and the reconciler brings a changed address back to the server's
      server.handleSystemWrite(ApiRequest.builder(ApiRequest.Verb.UPDATE,
          new io.apiserver4j.core.GroupVersionResource("", "v1", "endpoints"))
          .namespace("default").name("kubernetes").body(ep.with("subsets",
              Json.read("[{\"addresses\":[{\"ip\":\"10.0.0.9\"}],\"ports\":[{\"name\":"
                  + "\"https\",\"port\":6443,\"protocol\":\"TCP\"}]}]"))).build()).orThrow();
      BootstrapObjects.ensure(server, "127.0.0.1", 6443);
      assertThat(Json.write(server.resources("v1", "endpoints").namespace("default")
          .get("kubernetes").getOrNull("subsets"))).contains("\"ip\":\"127.0.0.1\"");
    }
  }

  @Test
  void rejectsABadPort() {
    assertThatThrownBy(() -> BootstrapObjects.objects("10.0.0.2", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("securePort");
  }
}
