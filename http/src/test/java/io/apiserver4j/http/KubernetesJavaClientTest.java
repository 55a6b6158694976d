/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.reflect.TypeToken;
import io.apiserver4j.apiserver.ApiServer;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.Config;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The official Kubernetes Java client, unchanged, against the HTTP server. */
class KubernetesJavaClientTest {
  static ApiServer api;
  static HttpApiServer http;
  static ApiClient client;
  static CoreV1Api core;
  static AppsV1Api apps;

  @BeforeAll
  static void start() throws Exception {
    // about the client's requests and watches: no controller writes beside the test's
    api = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
    http = HttpApiServer.builder(api).build();
    http.start();
    client = Config.fromUrl(http.url().toString(), false);
    client.setHttpClient(client.getHttpClient().newBuilder()
        .readTimeout(0, TimeUnit.SECONDS).build());
    core = new CoreV1Api(client);
    apps = new AppsV1Api(client);
    // "default" exists from the start, as in kube-apiserver
    for (String ns : new String[] {"jc-list", "jc-watch"}) {
      core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name(ns))).execute();
    }
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static V1ConfigMap configMap(String name, Map<String, String> labels,
      Map<String, String> data) {
    return new V1ConfigMap().apiVersion("v1").kind("ConfigMap")
        .metadata(new V1ObjectMeta().name(name).labels(labels)).data(data);
  }

  @Test
  void createGetAndListWithSelectors() throws Exception {
    V1ConfigMap created = core.createNamespacedConfigMap("jc-list",
        configMap("a", Map.of("tier", "web"), Map.of("k", "1"))).execute();
    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getCreationTimestamp()).isNotNull();
    core.createNamespacedConfigMap("jc-list", configMap("b", Map.of("tier", "db"),
        Map.of("k", "2"))).execute();
    assertThat(core.readNamespacedConfigMap("a", "jc-list").execute().getData())
        .containsEntry("k", "1");
    assertThat(core.listNamespacedConfigMap("jc-list").labelSelector("tier=db").execute()
        .getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("b");
    assertThat(core.listNamespacedConfigMap("jc-list").fieldSelector("metadata.name=a")
        .execute().getItems()).extracting(c -> c.getMetadata().getName()).containsExactly("a");
    assertThat(core.listConfigMapForAllNamespaces().labelSelector("tier in (web,db)").execute()
        .getItems()).hasSize(2);
    assertThatThrownBy(() -> core.readNamespacedConfigMap("absent", "jc-list").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(404);
          assertThat(e.getResponseBody()).contains("configmaps \\\"absent\\\" not found");
        });
  }

  @Test
  void serverSideApplyWithForceAndDryRun() throws Exception {
    String manifest = String.join("\n",
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata: {name: ssa, namespace: default}",
        "spec:",
        "  replicas: %d",
        "  selector: {matchLabels: {app: ssa}}",
        "  template:",
        "    metadata: {labels: {app: ssa}}",
        "    spec: {containers: [{name: main, image: nginx}]}",
        "");
    V1Deployment applied = apply(String.format(manifest, 2), "java", false, false);
    assertThat(applied.getSpec().getReplicas()).isEqualTo(2);
    // this client does not surface managedFields; check them on the server
    assertThat(io.apiserver4j.core.Json.write(api.resources("apps/v1", "deployments")
        .namespace("default").get("ssa"))).contains("\"manager\":\"java\",\"operation\":\"Apply\"");

    assertThatThrownBy(() -> apply(String.format(manifest, 4), "other", false, false))
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getResponseBody()).contains("Apply failed with 1 conflict: conflict with"
              + " \\\"java\\\": .spec.replicas");
        });
    V1Deployment dry = apply(String.format(manifest, 4), "other", true, true);
    assertThat(dry.getSpec().getReplicas()).isEqualTo(4);
    assertThat(apps.readNamespacedDeployment("ssa", "default").execute().getSpec().getReplicas())
        .isEqualTo(2);
    V1Deployment forced = apply(String.format(manifest, 4), "other", true, false);
    assertThat(forced.getSpec().getReplicas()).isEqualTo(4);
  }

  private static V1Deployment apply(String yaml, String manager, boolean force, boolean dryRun)
      throws ApiException {
    return PatchUtils.patch(V1Deployment.class, () -> {
      var request = apps.patchNamespacedDeployment("ssa", "default", new V1Patch(yaml))
          .fieldManager(manager).force(force);
      if (dryRun) {
        request = request.dryRun("All");
      }
      return request.buildCall(null);
    }, V1Patch.PATCH_FORMAT_APPLY_YAML, client);
  }

  @Test
  void staleReplaceIs409() throws Exception {
    V1ConfigMap created = core.createNamespacedConfigMap("default",
        configMap("stale", Map.of(), Map.of("v", "1"))).execute();
    V1ConfigMap fresh = core.replaceNamespacedConfigMap("stale", "default",
        created.data(Map.of("v", "2"))).execute();
    assertThat(fresh.getMetadata().getResourceVersion())
        .isNotEqualTo(created.getMetadata().getResourceVersion());
    V1ConfigMap stale = configMap("stale", Map.of(), Map.of("v", "3"));
    stale.getMetadata().resourceVersion(created.getMetadata().getResourceVersion());
    assertThatThrownBy(() -> core.replaceNamespacedConfigMap("stale", "default", stale)
        .execute())
        .isInstanceOfSatisfying(ApiException.class, e -> {
          assertThat(e.getCode()).isEqualTo(409);
          assertThat(e.getResponseBody()).contains("\"reason\":\"Conflict\"")
              .contains("the object has been modified");
        });
  }

  @Test
  void watchSeesChanges() throws Exception {
    core.createNamespacedConfigMap("jc-watch", configMap("before", Map.of(), Map.of()))
        .execute();
    try (Watch<V1ConfigMap> watch = Watch.createWatch(client,
        core.listNamespacedConfigMap("jc-watch").watch(true).timeoutSeconds(20)
            .buildCall(null),
        new TypeToken<Watch.Response<V1ConfigMap>>() {}.getType())) {
      Watch.Response<V1ConfigMap> first = watch.next();
      assertThat(first.type).isEqualTo("ADDED");
      assertThat(first.object.getMetadata().getName()).isEqualTo("before");
      core.createNamespacedConfigMap("jc-watch", configMap("after", Map.of(), Map.of()))
          .execute();
      Watch.Response<V1ConfigMap> added = watch.next();
      assertThat(added.type).isEqualTo("ADDED");
      assertThat(added.object.getMetadata().getName()).isEqualTo("after");
      core.deleteNamespacedConfigMap("after", "jc-watch").execute();
      Watch.Response<V1ConfigMap> deleted = watch.next();
      assertThat(deleted.type).isEqualTo("DELETED");
      assertThat(deleted.object.getMetadata().getName()).isEqualTo("after");
    }
  }
}
