/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.controllers.metrics.CustomMetrics;
import io.apiserver4j.core.Value;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The horizontal pod autoscaler's {@code Pods}, {@code Object} and {@code External} metrics from
 * the {@link CustomMetrics} a test sets, on a server whose clock the test moves, with the
 * Deployment and ReplicaSet controllers and Pods made Running and Ready as a kubelet would.
 * Expected replicas, statuses, conditions and messages are kube's (pkg/controller/podautoscaler:
 * {@code computeStatusForPodsMetric}, {@code computeStatusForObjectMetric},
 * {@code computeStatusForExternalMetric}, the metrics clients' errors).
 */
class CustomMetricsScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  private static final GroupVersionResource HPAS =
      new GroupVersionResource("autoscaling", "v2", "horizontalpodautoscalers");
  private static final GroupVersionResource EVENTS =
      new GroupVersionResource("", "v1", "events");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;
  private final CustomMetrics custom = CustomMetrics.create();

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("deployment,replicaset,horizontalpodautoscaling",
        b -> b.customMetrics(custom));
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private void deployment(int replicas) {
    api.resources(DEPLOYMENTS).namespace("ns").create(HpaFixtures.webDeployment(replicas));
    scenario.idle();
  }

  private void hpaWith(String metrics) {
    api.resources(HPAS).namespace("ns").create(Json.read("{\"apiVersion\":\"autoscaling/v2\","
        + "\"kind\":\"HorizontalPodAutoscaler\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
        + "\"scaleTargetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":"
        + "\"web\"},\"minReplicas\":1,\"maxReplicas\":10,\"metrics\":[" + metrics + "]}}"));
    scenario.idle();
  }

  private long replicas() {
    return Nested.integer(api.resources(DEPLOYMENTS).namespace("ns").get("web"), "spec",
        "replicas");
  }

  private MapValue hpaStatus() {
    return Nested.map(api.resources(HPAS).namespace("ns").get("web"), "status");
  }

  private static MapValue condition(MapValue status, String type) {
    return Nested.list(status, "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(type)).map(c -> (MapValue) c).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type + " condition in " + status));
  }

  private static void assertCondition(MapValue status, String type, String expectedStatus,
      String reason, String message) {
    MapValue c = condition(status, type);
    assertThat(Nested.str(c, "status")).as(type).isEqualTo(expectedStatus);
    assertThat(Nested.str(c, "reason")).as(type).isEqualTo(reason);
    assertThat(Nested.str(c, "message")).as(type).isEqualTo(message);
  }

  private List<String> rescaleEvents() {
    return api.resources(EVENTS).namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals("SuccessfulRescale"))
        .sorted((a, b) -> Nested.str(a, "metadata", "name")
            .compareTo(Nested.str(b, "metadata", "name")))
        .map(e -> Nested.str(e, "message")).toList();
  }

  private List<Value> currentMetrics() {
    return Nested.list(hpaStatus(), "currentMetrics");
  }

  @Test
  void scalesOnAPodsMetric() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpaWith("{\"type\":\"Pods\",\"pods\":{\"metric\":{\"name\":\"packets-per-second\"},"
        + "\"target\":{\"type\":\"AverageValue\",\"averageValue\":\"1k\"}}}");
    for (MapValue pod : pods().list()) {
      custom.setPodMetric("ns", Meta.metaString(pod, "name"), "packets-per-second", "1500");
    }

    scenario.advance(15);
    // average 1500 against 1k on 2 Pods: ceil(1.5 x 2) = 3
    assertThat(replicas()).isEqualTo(3);
    assertThat(currentMetrics()).containsExactly(Json.read("{\"type\":\"Pods\",\"pods\":{"
        + "\"metric\":{\"name\":\"packets-per-second\"},\"current\":{\"averageValue\":"
        + "\"1500\"}}}"));
    assertCondition(hpaStatus(), "ScalingActive", "True", "ValidMetricFound",
        "the HPA was able to successfully calculate a replica count from pods metric"
            + " packets-per-second");
    assertThat(rescaleEvents()).containsExactly(
        "New size: 3; reason: pods metric packets-per-second above target");
  }

  @Test
  void aMissingPodsMetricIsReportedAsKube() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpaWith("{\"type\":\"Pods\",\"pods\":{\"metric\":{\"name\":\"packets-per-second\"},"
        + "\"target\":{\"type\":\"AverageValue\",\"averageValue\":\"1k\"}}}");

    scenario.advance(15);
    assertCondition(hpaStatus(), "ScalingActive", "False", "FailedGetPodsMetric",
        "the HPA was unable to compute the replica count: unable to get metric"
            + " packets-per-second: no metrics returned from custom metrics API");
    assertThat(replicas()).isEqualTo(2);
  }

  @Test
  void scalesOnAnObjectMetricAndReportsAMissingOne() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpaWith("{\"type\":\"Object\",\"object\":{\"describedObject\":{\"apiVersion\":\"v1\","
        + "\"kind\":\"Service\",\"name\":\"web\"},\"metric\":{\"name\":"
        + "\"requests-per-second\"},\"target\":{\"type\":\"Value\",\"value\":\"10\"}}}");

    scenario.advance(15);
    assertCondition(hpaStatus(), "ScalingActive", "False", "FailedGetObjectMetric",
        "the HPA was unable to compute the replica count: unable to get metric"
            + " requests-per-second: Service on ns web/unable to fetch metrics from custom"
            + " metrics API: the server could not find the metric requests-per-second for"
            + " services web");

    custom.setObjectMetric("ns", "v1", "Service", "web", "requests-per-second", "15");
    scenario.advance(15);
    // 15 against 10 on 2 ready Pods: ceil(1.5 x 2) = 3
    assertThat(replicas()).isEqualTo(3);
    assertThat(currentMetrics()).containsExactly(Json.read("{\"type\":\"Object\",\"object\":{"
        + "\"describedObject\":{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"name\":\"web\"},"
        + "\"metric\":{\"name\":\"requests-per-second\"},\"current\":{\"value\":\"15\"}}}"));
    assertThat(rescaleEvents()).containsExactly(
        "New size: 3; reason: Service metric requests-per-second above target");
  }

  @Test
  void scalesOnAnExternalMetricSummedOverItsSelectedSeries() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpaWith("{\"type\":\"External\",\"external\":{\"metric\":{\"name\":\"queue-length\","
        + "\"selector\":{\"matchLabels\":{\"queue\":\"work\"}}},\"target\":{\"type\":"
        + "\"AverageValue\",\"averageValue\":\"30\"}}}");

    scenario.advance(15);
    String selector = "&LabelSelector{MatchLabels:map[string]string{queue: work,},"
        + "MatchExpressions:[]LabelSelectorRequirement{},}";
    assertCondition(hpaStatus(), "ScalingActive", "False", "FailedGetExternalMetric",
        "the HPA was unable to compute the replica count: unable to get external metric"
            + " ns/queue-length/" + selector + ": no metrics returned from external metrics"
            + " API");

    custom.setExternalMetric("ns", "queue-length", java.util.Map.of("queue", "work"), "60")
        .setExternalMetric("ns", "queue-length", java.util.Map.of("queue", "work",
            "shard", "2"), "30")
        .setExternalMetric("ns", "queue-length", java.util.Map.of("queue", "other"), "900");
    scenario.advance(15);
    // 60 + 30 per 30 a Pod: 3 Pods; the average over the 2 current replicas is 45
    assertThat(replicas()).isEqualTo(3);
    assertThat(currentMetrics()).containsExactly(Json.read("{\"type\":\"External\","
        + "\"external\":{\"metric\":{\"name\":\"queue-length\",\"selector\":{"
        + "\"matchLabels\":{\"queue\":\"work\"}}},\"current\":{\"averageValue\":\"45\"}}}"));
    assertThat(rescaleEvents()).containsExactly("New size: 3; reason: external metric"
        + " queue-length(" + selector + ") above target");
  }

  @Test
  void withoutAMetricsAdapterTheMetricsApisAreNotRegistered() {
    controllers.close();
    controllers = scenario.start("deployment,replicaset,horizontalpodautoscaling");
    deployment(2);
    scenario.markPodsReady("ns");
    hpaWith("{\"type\":\"External\",\"external\":{\"metric\":{\"name\":\"queue-length\"},"
        + "\"target\":{\"type\":\"Value\",\"value\":\"30\"}}}");

    scenario.advance(15);
    assertCondition(hpaStatus(), "ScalingActive", "False", "FailedGetExternalMetric",
        "the HPA was unable to compute the replica count: unable to get external metric"
            + " ns/queue-length/nil: unable to fetch metrics from external metrics API: no"
            + " external metrics API (external.metrics.k8s.io) registered");
  }
}
