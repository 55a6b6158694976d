/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit.clientjava;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.junit.ApiServerAssertions;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.TestApiServer;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.PatchUtils;
import java.util.Map;
import org.junit.jupiter.api.Test;

@ApiServerTest
class ClientJavaObjectsTest {
  ApiClient client;
  TestApiServer server;

  @Test
  void modelObjectsGoInAndOutOfTheInProcessApi() {
    V1ConfigMap created = ClientJavaObjects.toObject(server.resources("v1", "configmaps")
        .namespace("default").create(ClientJavaObjects.toValue(new V1ConfigMap().apiVersion("v1")
            .kind("ConfigMap").metadata(new V1ObjectMeta().name("x")).data(Map.of("a", "1")))),
        V1ConfigMap.class);
    assertThat(created.getData()).containsEntry("a", "1");
    assertThat(created.getMetadata().getCreationTimestamp()).isNotNull();
  }

  @Test
  void assertionsOnApiExceptions() throws Exception {
    CoreV1Api core = new CoreV1Api(client);
    String yaml = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"y\"},"
        + "\"data\":{\"a\":\"%s\"}}";
    V1ConfigMap applied = PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap(
        "y", "default", new V1Patch(yaml.formatted("1"))).fieldManager("alice").force(false)
        .buildCall(null), V1Patch.PATCH_FORMAT_APPLY_YAML, client);
    assertThat(applied.getData()).containsEntry("a", "1");
    ApiServerAssertions.assertThat(server.resources("v1", "configmaps").namespace("default")
        .get("y")).field(".data.a").isAppliedBy("alice");

    ApiException e = org.junit.jupiter.api.Assertions.assertThrows(ApiException.class,
        () -> PatchUtils.patch(V1ConfigMap.class, () -> core.patchNamespacedConfigMap("y",
            "default", new V1Patch(yaml.formatted("2"))).fieldManager("bob").force(false)
            .buildCall(null), V1Patch.PATCH_FORMAT_APPLY_YAML, client));
    ClientJavaObjects.assertThat(e).isConflictOn(".data.a").with("alice");
  }
}
