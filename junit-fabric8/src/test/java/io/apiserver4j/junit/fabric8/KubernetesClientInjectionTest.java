/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.fabric8;

import static io.apiserver4j.junit.ApiServerAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.TestApiServer;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.Test;

@ApiServerTest
class KubernetesClientInjectionTest {
  KubernetesClient client;

  @Test
  void fieldAndParameterAreOneClientOfTheServer(KubernetesClient parameter, TestApiServer server) {
    assertThat(client).isSameAs(parameter).isSameAs(server.client(KubernetesClient.class));
    assertThat(client.getMasterUrl().toString()).startsWith(server.url().toString());
    assertThat(client.getNamespace()).isEqualTo("default");
  }

  @Test
  void writesThroughTheClientAreSeenInProcess(ApiServer api) {
    client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("f8")
        .endMetadata().addToData("a", "1").build()).fieldManager("fabric8").serverSideApply();
    assertThat(api.resources("v1", "configmaps").namespace("default").get("f8"))
        .field(".data.a").isAppliedBy("fabric8");
    ConfigMap read = client.configMaps().withName("f8").get();
    assertThat(read.getMetadata().getCreationTimestamp()).isEqualTo("2026-01-01T00:00:00Z");
  }
}
