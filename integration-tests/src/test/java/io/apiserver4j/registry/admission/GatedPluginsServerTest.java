/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The admission plugins kube-apiserver 1.36 adds by feature gate, through the server, on by
 * default: PodTopologyLabels mutating, PodResizeValidator refusing, with kube's message.
 * NodeDeclaredFeatureValidator has no request to refuse here yet: the updates it checks (a
 * non-sidecar init container's or the pod-level resources resized) are refused earlier by this
 * server's pod validation; its cases run in {@link PluginCasesTest}.
 */
class GatedPluginsServerTest {
  static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  // the ServiceAccount plugin would wait for the default ServiceAccount: not what is tested here
  private final ApiServer server = ApiServer.builder().disableAdmissionPlugins("ServiceAccount")
      .build();

  @AfterEach
  void close() {
    server.close();
  }

  private MapValue create(GroupVersionResource r, String yaml) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, r)
        .namespace(r.equals(NODES) ? "" : "default").body(Yaml.read(yaml)).build()).orThrow();
  }

  private MapValue get(String pod) {
    return server.handle(ApiRequest.builder(ApiRequest.Verb.GET, PODS).namespace("default")
        .name(pod).build()).orThrow();
  }

  @Test
  void podTopologyLabelsCopiesTheNodesZoneAndRegionThroughTheBinding() {
    create(NODES, "{apiVersion: v1, kind: Node, metadata: {name: n1, labels: {"
        + "topology.kubernetes.io/zone: z1, topology.kubernetes.io/region: r1, other: x}}}");
    create(PODS, "{apiVersion: v1, kind: Pod, metadata: {name: p1, labels: {app: a}},"
        + " spec: {containers: [{name: c, image: i}]}}");
    server.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace("default")
        .name("p1").subresource("binding").body(Yaml.read("{apiVersion: v1, kind: Binding,"
            + " metadata: {name: p1}, target: {kind: Node, name: n1}}")).build()).orThrow();
    MapValue bound = get("p1");
    assertThat(Nested.str(bound, "spec", "nodeName")).isEqualTo("n1");
    assertThat(Nested.map(bound, "metadata", "labels")).isEqualTo(Yaml.read(
        "{app: a, topology.kubernetes.io/zone: z1, topology.kubernetes.io/region: r1}"));

    MapValue direct = create(PODS, "{apiVersion: v1, kind: Pod, metadata: {name: p2, labels:"
        + " {topology.kubernetes.io/zone: mine}}, spec: {nodeName: n1, containers: [{name: c,"
        + " image: i}]}}");
    assertThat(Nested.map(direct, "metadata", "labels")).isEqualTo(Yaml.read(
        "{topology.kubernetes.io/zone: z1, topology.kubernetes.io/region: r1}"));
  }

  @Test
  void podTopologyLabelsCanBeSwitchedOff() {
    try (ApiServer off = ApiServer.builder()
        .disableAdmissionPlugins("ServiceAccount", "PodTopologyLabels").build()) {
      off.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, NODES).body(Yaml.read(
          "{apiVersion: v1, kind: Node, metadata: {name: n1, labels: {"
              + "topology.kubernetes.io/zone: z1}}}")).build()).orThrow();
      MapValue pod = off.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS)
          .namespace("default").body(Yaml.read("{apiVersion: v1, kind: Pod, metadata: {name: p},"
              + " spec: {nodeName: n1, containers: [{name: c, image: i}]}}")).build()).orThrow();
      assertThat(Nested.mapOrNull(pod, "metadata", "labels")).isNull();
    }
  }

  private ApiResponse resize(String pod, String cpu) {
    MapValue current = get(pod);
    MapValue container = (MapValue) Nested.list(current, "spec", "containers").get(0);
    container = Nested.set(container, Value.of(cpu), "resources", "requests",
        "cpu");
    MapValue body = Nested.set(current, ListValue.of(List.of(
        container)), "spec", "containers");
    return server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("default")
        .name(pod).subresource("resize").body(body).build());
  }

  @Test
  void podResizeValidatorRefusesAResizeBeyondTheNodesAllocatable() {
    MapValue node = create(NODES, "{apiVersion: v1, kind: Node, metadata: {name: linux-node,"
        + " labels: {kubernetes.io/os: linux}}}");
    // a node's status is the kubelet's to write, through nodes/status
    server.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, NODES).name("linux-node")
        .subresource("status").body(node.with("status", Yaml.read(
            "{allocatable: {cpu: '4', memory: 8Gi}}"))).build()).orThrow();
    create(PODS, "{apiVersion: v1, kind: Pod, metadata: {name: test-pod}, spec: {nodeName:"
        + " linux-node, containers: [{name: main, image: i, resources: {requests: {cpu: '1',"
        + " memory: 1Gi}}}]}}");
    ApiResponse refused = resize("test-pod", "10");
    Status status = refused.failure().orElseThrow();
    assertThat(status.code()).isEqualTo(403);
    assertThat(status.message()).isEqualTo("pods \"test-pod\" is forbidden: Node didn't have"
        + " enough allocatable resources: cpu, requested: 10000, allocatable: 4000");
    assertThat(status.causes()).containsExactly(new StatusCause("NodeCapacity", "", ""));
    assertThat(Nested.str(Nested.list(get("test-pod"), "spec", "containers").get(0),
        "resources", "requests", "cpu")).as("unchanged").isEqualTo("1");

    ApiResponse accepted = resize("test-pod", "2");
    assertThat(accepted.isSuccess()).as(String.valueOf(accepted.failure())).isTrue();
  }
}
