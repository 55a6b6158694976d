/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.CollectionOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.labels.LabelSelector;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code metrics.k8s.io/v1beta1} served from {@link PodMetrics}: the shapes of metrics-server's
 * {@code PodMetrics} and {@code NodeMetrics} (k8s.io/metrics {@code pkg/apis/metrics/v1beta1}:
 * {@code timestamp}, {@code window}, {@code containers[].usage}, {@code usage}), read-only verbs,
 * label selection, and the group present only while served.
 */
class MetricsApiTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
  private static final GroupVersionResource POD_METRICS =
      new GroupVersionResource("metrics.k8s.io", "v1beta1", "pods");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODE_METRICS =
      new GroupVersionResource("metrics.k8s.io", "v1beta1", "nodes");

  private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
  private final PodMetrics metrics = PodMetrics.create();
  private ApiServer api;

  @BeforeEach
  void start() {
    api = ApiServer.builder().clock(clock).build();
    for (String node : List.of("node-1", "node-2")) {
      api.resources("v1", "nodes").create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Node\","
          + "\"metadata\":{\"name\":\"" + node + "\",\"labels\":{\"zone\":\"" + node + "\"}}}"));
    }
    pod("web-1", "web", "node-1");
    pod("web-2", "web", "node-1");
    pod("db-1", "db", "node-2");
  }

  @AfterEach
  void stop() {
    api.close();
  }

  private void pod(String name, String app, String node) {
    api.resources("v1", "pods").namespace("default").create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\""
        + app + "\"}},\"spec\":{\"nodeName\":\"" + node + "\",\"containers\":[{\"name\":\"c\","
        + "\"image\":\"nginx\"},{\"name\":\"sidecar\",\"image\":\"envoy\"}]}}"));
    MapValue created = api.resources("v1", "pods").namespace("default").get(name);
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("default").name(name)
        .subresource("status").body(created.with("status", Json.read(
            "{\"phase\":\"Running\"}"))).build()).orThrow();
  }

  @Test
  void podMetricsHaveMetricsServersShape() {
    metrics.setContainerUsage("default", "web-1", "c", "250m", "64Mi")
        .setContainerUsage("default", "web-1", "sidecar", "10m", "16Mi");
    try (MetricsApi served = MetricsApi.serve(api, metrics, clock)) {
      MapValue m = api.resources(POD_METRICS).namespace("default").get("web-1");
      assertThat(m).isEqualTo(Json.read("{\"kind\":\"PodMetrics\",\"apiVersion\":"
          + "\"metrics.k8s.io/v1beta1\",\"metadata\":{\"name\":\"web-1\",\"namespace\":"
          + "\"default\",\"creationTimestamp\":\"2026-03-01T10:00:00Z\",\"labels\":{\"app\":"
          + "\"web\"}},\"timestamp\":\"2026-03-01T10:00:00Z\",\"window\":\"15s\","
          + "\"containers\":[{\"name\":\"c\",\"usage\":{\"cpu\":\"250m\",\"memory\":\"64Mi\"}},"
          + "{\"name\":\"sidecar\",\"usage\":{\"cpu\":\"10m\",\"memory\":\"16Mi\"}}]}"));
      // metrics-server's Get: a Pod without metrics, and one that does not exist
      assertThatThrownBy(() -> api.resources(POD_METRICS).namespace("default").get("web-2"))
          .isInstanceOf(NotFoundException.class)
          .hasMessage("pods.metrics.k8s.io \"default/web-2\" not found");
      assertThatThrownBy(() -> api.resources(POD_METRICS).namespace("default").get("nope"))
          .isInstanceOf(NotFoundException.class).hasMessage("pods \"nope\" not found");
    }
  }

  @Test
  void listsSelectByThePodsLabels() {
    metrics.setContainerUsage("default", "web-1", "c", "100m", "1Mi")
        .setContainerUsage("default", "web-2", "c", "200m", "2Mi")
        .setContainerUsage("default", "db-1", "c", "300m", "3Mi");
    try (MetricsApi served = MetricsApi.serve(api, metrics, clock)) {
      MapValue list = api.resources(POD_METRICS).namespace("default")
          .listObject(CollectionOptions.of(LabelSelector.parse("app=web")));
      assertThat(Nested.str(list, "kind")).isEqualTo("PodMetricsList");
      assertThat(Nested.list(list, "items").stream().map(i -> Nested.str(i, "metadata", "name")))
          .containsExactly("web-1", "web-2");
      assertThat(api.resources(POD_METRICS).list()).hasSize(3);
    }
  }

  @Test
  void onlyRunningPodsHaveMetrics() {
    api.resources("v1", "pods").namespace("default").create(Json.read("{\"apiVersion\":\"v1\","
        + "\"kind\":\"Pod\",\"metadata\":{\"name\":\"pending\"},\"spec\":{\"containers\":"
        + "[{\"name\":\"c\",\"image\":\"nginx\"}]}}"));
    metrics.setContainerUsage("default", "pending", "c", "1m", "1Mi")
        .setContainerUsage("default", "web-1", "c", "1m", "1Mi");
    try (MetricsApi served = MetricsApi.serve(api, metrics, clock)) {
      assertThat(api.resources(POD_METRICS).namespace("default").list().stream()
          .map(m -> Meta.metaString(m, "name"))).containsExactly("web-1");
    }
  }

  @Test
  void nodeUsageIsTheSumOfItsPodsUnlessSet() {
    metrics.setContainerUsage("default", "web-1", "c", "100m", "1Mi")
        .setContainerUsage("default", "web-1", "sidecar", "50m", "1Mi")
        .setContainerUsage("default", "web-2", "c", "200m", "2Mi");
    try (MetricsApi served = MetricsApi.serve(api, metrics, clock)) {
      MapValue n1 = api.resources(NODE_METRICS).get("node-1");
      assertThat(Nested.map(n1, "usage")).isEqualTo(Json.read(
          "{\"cpu\":\"350m\",\"memory\":\"4Mi\"}"));
      assertThat(Nested.str(n1, "window")).isEqualTo("15s");
      assertThat(Meta.labels(n1)).containsEntry("zone", "node-1");
      assertThat(Nested.map(api.resources(NODE_METRICS).get("node-2"), "usage"))
          .isEqualTo(Json.read("{\"cpu\":\"0\",\"memory\":\"0\"}"));

      metrics.setNodeUsage("node-2", Map.of("cpu", "1500m", "memory", "2Gi"));
      assertThat(Nested.map(api.resources(NODE_METRICS).get("node-2"), "usage"))
          .isEqualTo(Json.read("{\"cpu\":\"1500m\",\"memory\":\"2Gi\"}"));
      assertThat(api.resources(NODE_METRICS).listObject(CollectionOptions.of(
          LabelSelector.parse("zone=node-2"))).get("items").orElseThrow())
          .satisfies(items -> assertThat(Nested.list(items)).hasSize(1));
    }
  }

  @Test
  void readOnlyAndServedOnlyWhileOpen() {
    MetricsApi served = MetricsApi.serve(api, metrics, clock);
    assertThat(api.registry().find(POD_METRICS)).isPresent();
    ApiResponse delete = api.handle(ApiRequest.builder(ApiRequest.Verb.DELETE, POD_METRICS)
        .namespace("default").name("web-1").build());
    assertThat(delete.code()).isEqualTo(405);
    ApiResponse watch = api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, NODE_METRICS)
        .body(Json.read("{\"apiVersion\":\"metrics.k8s.io/v1beta1\",\"kind\":\"NodeMetrics\","
            + "\"metadata\":{\"name\":\"x\"}}")).build());
    assertThat(watch.code()).isEqualTo(405);
    assertThatThrownBy(() -> MetricsApi.serve(api, metrics, clock))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already served");

    served.close();
    assertThat(api.registry().find(POD_METRICS)).isEmpty();
    assertThat(api.handle(ApiRequest.builder(ApiRequest.Verb.LIST, POD_METRICS).build()).code())
        .isEqualTo(404);
  }
}
