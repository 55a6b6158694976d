/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.kubernetes.client.ProtoClient;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.util.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The official Java client's {@link ProtoClient}, whose messages are generated from
 * Kubernetes' generated.proto files by protoc (an implementation independent of ours), creates,
 * reads, lists, updates and deletes built-in objects in protobuf.
 */
class KubernetesJavaClientProtobufTest {
  static ApiServer api;
  static HttpApiServer http;
  static ProtoClient proto;

  @BeforeAll
  static void start() throws Exception {
    // about the client's requests and watches: no controller writes beside the test's
    api = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
    http = HttpApiServer.builder(api).build();
    http.start();
    ApiClient client = Config.fromUrl(http.url().toString(), false);
    proto = new ProtoClient(client);
    V1.Namespace ns = V1.Namespace.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("jp")).build();
    ProtoClient.ObjectOrStatus<V1.Namespace> created =
        proto.create(ns, "/api/v1/namespaces", "v1", "Namespace");
    assertThat(created.status).as(String.valueOf(created.status)).isNull();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  @Test
  void configMapLifecycle() throws Exception {
    V1.ConfigMap cm = V1.ConfigMap.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("p").putLabels("app", "x"))
        .putData("a", "1")
        .putBinaryData("b", com.google.protobuf.ByteString.copyFrom(new byte[] {0, 1, 2}))
        .build();
    String path = "/api/v1/namespaces/jp/configmaps";
    ProtoClient.ObjectOrStatus<V1.ConfigMap> created = proto.create(cm, path, "v1", "ConfigMap");
    assertThat(created.status).as(String.valueOf(created.status)).isNull();
    V1.ConfigMap live = created.object;
    assertThat(live.getMetadata().getUid()).isNotEmpty();
    assertThat(live.getMetadata().getCreationTimestamp().getSeconds()).isPositive();
    assertThat(live.getDataMap()).containsEntry("a", "1");
    assertThat(live.getBinaryDataMap().get("b").toByteArray()).containsExactly(0, 1, 2);

    ProtoClient.ObjectOrStatus<V1.ConfigMap> got = proto.get(V1.ConfigMap.newBuilder(),
        path + "/p");
    assertThat(got.object).isEqualTo(live);

    V1.ConfigMap changed = live.toBuilder().putData("a", "2").build();
    ProtoClient.ObjectOrStatus<V1.ConfigMap> updated = proto.update(changed, path + "/p", "v1",
        "ConfigMap");
    assertThat(updated.status).as(String.valueOf(updated.status)).isNull();
    assertThat(updated.object.getDataMap()).containsEntry("a", "2");
    assertThat(updated.object.getMetadata().getResourceVersion())
        .isNotEqualTo(live.getMetadata().getResourceVersion());

    ProtoClient.ObjectOrStatus<V1.ConfigMapList> list = proto.list(
        V1.ConfigMapList.newBuilder(), path);
    assertThat(list.object.getItemsList()).extracting(i -> i.getMetadata().getName())
        .containsExactly("p");

    ProtoClient.ObjectOrStatus<V1.ConfigMap> deleted = proto.delete(V1.ConfigMap.newBuilder(),
        path + "/p", Meta.DeleteOptions.newBuilder().setGracePeriodSeconds(0).build());
    assertThat(deleted.status == null || "Success".equals(deleted.status.getStatus()))
        .as(String.valueOf(deleted.status)).isTrue();
    ProtoClient.ObjectOrStatus<V1.ConfigMap> gone = proto.get(V1.ConfigMap.newBuilder(),
        path + "/p");
    assertThat(gone.status.getCode()).isEqualTo(404);
    assertThat(gone.status.getReason()).isEqualTo("NotFound");
    assertThat(gone.status.getMessage()).isEqualTo("configmaps \"p\" not found");
  }

  @Test
  void deploymentWithQuantitiesIntOrStringsAndAPointerZero() throws Exception {
    V1.Container container = V1.Container.newBuilder().setName("c").setImage("nginx")
        .setResources(V1.ResourceRequirements.newBuilder()
            .putLimits("cpu", Resource.Quantity.newBuilder().setString("500m").build())
            .putRequests("memory", Resource.Quantity.newBuilder().setString("64Mi").build()))
        .build();
    V1Apps.Deployment d = V1Apps.Deployment.newBuilder()
        .setMetadata(Meta.ObjectMeta.newBuilder().setName("web"))
        .setSpec(V1Apps.DeploymentSpec.newBuilder()
            .setReplicas(0)
            .setSelector(Meta.LabelSelector.newBuilder().putMatchLabels("app", "web"))
            .setTemplate(V1.PodTemplateSpec.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().putLabels("app", "web"))
                .setSpec(V1.PodSpec.newBuilder().addContainers(container)))
            .setStrategy(V1Apps.DeploymentStrategy.newBuilder().setType("RollingUpdate")
                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                    .setMaxSurge(IntStr.IntOrString.newBuilder().setType(1).setStrVal("30%"))
                    .setMaxUnavailable(IntStr.IntOrString.newBuilder().setType(0)
                        .setIntVal(2)))))
        .build();
    ProtoClient.ObjectOrStatus<V1Apps.Deployment> created = proto.create(d,
        "/apis/apps/v1/namespaces/jp/deployments", "apps/v1", "Deployment");
    assertThat(created.status).as(String.valueOf(created.status)).isNull();
    V1Apps.DeploymentSpec spec = created.object.getSpec();
    assertThat(spec.hasReplicas()).isTrue();
    assertThat(spec.getReplicas()).isZero();
    assertThat(spec.getStrategy().getRollingUpdate().getMaxSurge().getStrVal()).isEqualTo("30%");
    assertThat(spec.getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal())
        .isEqualTo(2);
    V1.ResourceRequirements resources = spec.getTemplate().getSpec().getContainers(0)
        .getResources();
    assertThat(resources.getLimitsMap().get("cpu").getString()).isEqualTo("500m");
    assertThat(resources.getRequestsMap().get("memory").getString()).isEqualTo("64Mi");
  }
}
