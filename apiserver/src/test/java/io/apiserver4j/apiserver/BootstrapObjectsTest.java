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

      // the first IP of the service range (10.96.0.0/12 by default), port 443 to the secure port
      MapValue svc = server.resources("v1", "services").namespace("default").get("kubernetes");
      assertThat(Json.write(svc.getOrNull("spec"))).contains("\"clusterIP\":\"10.96.0.1\"")
          .contains("\"port\":443").contains("\"targetPort\":6443");
      assertThat(Json.write(server.resources("scheduling.k8s.io/v1", "priorityclasses")
          .get("system-node-critical").getOrNull("value"))).isEqualTo("2000001000");
    }
  }

  @Test
  void rejectsABadPort() {
    assertThatThrownBy(() -> BootstrapObjects.objects("10.0.0.2", 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("securePort");
  }
}
