/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.Status;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * kube-apiserver's commonly enabled off-by-default admission plugins, switched on by name as
 * {@code --enable-admission-plugins} does, each seen through the server mutating or refusing a
 * request with kube's message; and kube's startup errors for names this server cannot run.
 */
class OffByDefaultPluginsServerTest {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
  static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1",
      "namespaces");
  private final List<ApiServer> servers = new ArrayList<>();

  @AfterEach
  void close() {
    servers.forEach(ApiServer::close);
  }

  /** A server with {@code enable} on; ServiceAccount off, as it would wait for its controller. */
  private ApiServer server(String... enable) {
    ApiServer s = ApiServer.builder().disableAdmissionPlugins("ServiceAccount")
        .enableAdmissionPlugins(enable).build();
    servers.add(s);
    return s;
  }

  private static ApiResponse create(ApiServer s, GroupVersionResource r, String ns, String yaml) {
    return s.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, r).namespace(ns)
        .body(Yaml.read(yaml)).build());
  }

  private static Status refused(ApiResponse r) {
    assertThat(r.isSuccess()).as("refused").isFalse();
    return r.failure().orElseThrow();
  }

  @Test
  void alwaysPullImages() {
    ApiServer s = server("AlwaysPullImages");
    MapValue pod = create(s, PODS, "default", "{apiVersion: v1, kind: Pod, metadata: {name: p},"
        + " spec: {initContainers: [{name: i, image: x, imagePullPolicy: Never}],"
        + " containers: [{name: c, image: x, imagePullPolicy: IfNotPresent}]}}").orThrow();
    assertThat(Nested.str(Nested.list(pod, "spec", "initContainers").get(0), "imagePullPolicy"))
        .isEqualTo("Always");
    assertThat(Nested.str(Nested.list(pod, "spec", "containers").get(0), "imagePullPolicy"))
        .isEqualTo("Always");
  }

  @Test
  void podNodeSelector() {
    ApiServer s = server("PodNodeSelector");
    create(s, NAMESPACES, "", "{apiVersion: v1, kind: Namespace, metadata: {name: team, annotations:"
        + " {scheduler.alpha.kubernetes.io/node-selector: 'env=prod'}}}").orThrow();
    MapValue pod = create(s, PODS, "team", "{apiVersion: v1, kind: Pod, metadata: {name: p},"
        + " spec: {nodeSelector: {disk: ssd}, containers: [{name: c, image: x}]}}").orThrow();
    assertThat(Nested.map(pod, "spec", "nodeSelector"))
        .isEqualTo(Yaml.read("{env: prod, disk: ssd}"));
    Status status = refused(create(s, PODS, "team", "{apiVersion: v1, kind: Pod, metadata: {name:"
        + " q}, spec: {nodeSelector: {env: dev}, containers: [{name: c, image: x}]}}"));
    assertThat(status.code()).isEqualTo(403);
    assertThat(status.message()).isEqualTo("pods \"q\" is forbidden: pod node label selector"
        + " conflicts with its namespace node label selector");
  }

  @Test
  void podTolerationRestriction() {
    ApiServer s = server("PodTolerationRestriction");
    create(s, NAMESPACES, "", "{apiVersion: v1, kind: Namespace, metadata: {name: team, annotations:"
        + " {scheduler.alpha.kubernetes.io/tolerationsWhitelist: '[{\"key\": \"ok\", \"operator\":"
        + " \"Exists\"}]'}}}").orThrow();
    Status status = refused(create(s, PODS, "team", "{apiVersion: v1, kind: Pod, metadata: {name:"
        + " p}, spec: {tolerations: [{key: other, operator: Exists}], containers: [{name: c,"
        + " image: x}]}}"));
    assertThat(status.code()).isEqualTo(500);
    assertThat(status.message()).isEqualTo("pod tolerations (possibly merged with namespace"
        + " default tolerations) conflict with its namespace whitelist");
  }

  @Test
  void extendedResourceToleration() {
    ApiServer s = server("ExtendedResourceToleration");
    MapValue pod = create(s, PODS, "default", "{apiVersion: v1, kind: Pod, metadata: {name: p},"
        + " spec: {containers: [{name: c, image: x, resources: {requests: {example.com/gpu: '1'},"
        + " limits: {example.com/gpu: '1'}}}]}}").orThrow();
    assertThat(Nested.list(pod, "spec", "tolerations")).contains(Yaml.read(
        "{key: example.com/gpu, operator: Exists, effect: NoSchedule}"));
  }

  @Test
  void denyServiceExternalIps() {
    ApiServer s = server("DenyServiceExternalIPs");
    Status status = refused(create(s, SERVICES, "default", "{apiVersion: v1, kind: Service,"
        + " metadata: {name: svc}, spec: {ports: [{port: 80}], externalIPs: [1.1.1.1]}}"));
    assertThat(status.code()).isEqualTo(403);
    assertThat(status.message()).isEqualTo("services \"svc\" is forbidden: Use of external IPs is"
        + " denied by admission control");
  }

  @Test
  void limitPodHardAntiAffinityTopology() {
    ApiServer s = server("LimitPodHardAntiAffinityTopology");
    Status status = refused(create(s, PODS, "default", "{apiVersion: v1, kind: Pod, metadata:"
        + " {name: p}, spec: {affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuring"
        + "Execution: [{labelSelector: {matchLabels: {a: b}}, topologyKey: zone}]}},"
        + " containers: [{name: c, image: x}]}}"));
    assertThat(status.code()).isEqualTo(403);
    assertThat(status.message()).isEqualTo("pods \"p\" is forbidden: affinity.PodAntiAffinity"
        + ".RequiredDuringScheduling has TopologyKey zone but only key kubernetes.io/hostname is"
        + " allowed");
  }

  @Test
  void namespaceExists() {
    ApiServer s = ApiServer.builder().disableAdmissionPlugins("ServiceAccount",
        "NamespaceLifecycle").enableAdmissionPlugins("NamespaceExists").build();
    servers.add(s);
    Status status = refused(create(s, PODS, "missing", "{apiVersion: v1, kind: Pod, metadata:"
        + " {name: p}, spec: {containers: [{name: c, image: x}]}}"));
    assertThat(status.code()).isEqualTo(404);
    assertThat(status.message()).isEqualTo("namespaces \"missing\" not found");
  }

  @Test
  void namesThisServerCannotRunAreRefusedAtStartAsKubeDoes() {
    assertThatThrownBy(() -> ApiServer.builder().enableAdmissionPlugins("EventRateLimit").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admission plugin \"EventRateLimit\" has no implementation on this server");
    assertThatThrownBy(() -> ApiServer.builder().enableAdmissionPlugins("NoSuchPlugin").build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("enable-admission-plugins plugin \"NoSuchPlugin\" is unknown");
    // disabling an unimplemented off-by-default name is accepted, as kube accepts it
    ApiServer s = ApiServer.builder().disableAdmissionPlugins("NodeRestriction",
        "PodGroupProtection", "JobValidation").build();
    servers.add(s);
    assertThat(s.admissionPlugins()).doesNotContain("PodGroupProtection", "JobValidation")
        .contains("PodTopologyLabels", "NodeDeclaredFeatureValidator", "PodResizeValidator",
            "PodGroupWorkloadExists");
  }
}
