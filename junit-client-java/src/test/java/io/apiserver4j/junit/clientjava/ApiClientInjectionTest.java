/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.clientjava;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.TestApiServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ApiServerTest
class ApiClientInjectionTest {
  ApiClient client;

  @Test
  void injectedClientTalksToTheServer(ApiClient parameter, TestApiServer server) throws Exception {
    assertThat(client).isSameAs(parameter);
    assertThat(client.getBasePath()).isEqualTo(server.url().toString());
    CoreV1Api core = new CoreV1Api(client);
    assertThat(core.listNamespace().execute().getItems()).extracting(V1Namespace::getMetadata)
        .extracting(V1ObjectMeta::getName).contains("default", "kube-system");
    core.createNamespacedConfigMap("default", new V1ConfigMap()
        .metadata(new V1ObjectMeta().name("official")).data(Map.of("a", "1"))).execute();
    assertThat(server.resources("v1", "configmaps").namespace("default").find("official"))
        .isPresent();
  }
}
