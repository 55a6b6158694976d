/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.fabric8;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Nested;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

@ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
class Fabric8ObjectsTest {
  KubernetesClient client;
  TestApiServer server;

  static ConfigMap configMap(String name, String value) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata()
        .addToData("a", value).build();
  }

  @Test
  void modelObjectsGoInAndOutOfTheInProcessApi() {
    ResourceClient configMaps = server.resources("v1", "configmaps").namespace("default");
    ConfigMap created = Fabric8Objects.toObject(
        configMaps.create(Fabric8Objects.toValue(configMap("x", "1"))), ConfigMap.class);
    assertThat(created.getData()).containsEntry("a", "1");
    assertThat(created.getMetadata().getUid()).isEqualTo("00000000-0000-4000-8000-000000000005");
    assertThat(Nested.str(Fabric8Objects.toValue(created), "metadata", "resourceVersion"))
        .isEqualTo(created.getMetadata().getResourceVersion());
  }

  @Test
  void assertionsOnClientObjectsAndFailures() {
    ConfigMap applied = client.configMaps().resource(configMap("y", "1")).fieldManager("alice")
        .serverSideApply();
    Fabric8Objects.assertThat(applied).field(".data.a").isAppliedBy("alice");

    KubernetesClientException e = org.junit.jupiter.api.Assertions.assertThrows(
        KubernetesClientException.class, () -> client.configMaps()
            .resource(configMap("y", "2")).fieldManager("bob").serverSideApply());
    Fabric8Objects.assertThat(e).isConflictOn(".data.a").with("alice").and()
        .hasMessage("Apply failed with 1 conflict: conflict with \"alice\": .data.a");
  }
}
