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
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The horizontal pod autoscaler on a server whose clock the test moves, with the Deployment and
 * ReplicaSet controllers, Pods made Running and Ready through {@code pods/status} as a kubelet
 * would, and their CPU usage set in {@link PodMetrics}. Expected replicas, conditions, messages
 * and events are kube's (pkg/controller/podautoscaler: a sync every 15 s, the first one period
 * after the autoscaler is seen; without {@code behavior}, scale-up at most to
 * max(2 x current, 4) and a 5-minute downscale stabilization; with it, its policies).
 */
class HorizontalPodAutoscalerScenarioTest {
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

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("deployment,replicaset,horizontalpodautoscaling");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private void deployment(int replicas) {
    api.resources(DEPLOYMENTS).namespace("ns").create(HpaFixtures.webDeployment(replicas));
    scenario.idle();
  }

  private void hpa(String behavior) {
    api.resources(HPAS).namespace("ns").create(Json.read("{\"apiVersion\":\"autoscaling/v2\","
        + "\"kind\":\"HorizontalPodAutoscaler\",\"metadata\":{\"name\":\"web\"},\"spec\":{"
        + "\"scaleTargetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":"
        + "\"web\"},\"minReplicas\":1,\"maxReplicas\":10,\"metrics\":[{\"type\":\"Resource\","
        + "\"resource\":{\"name\":\"cpu\",\"target\":{\"type\":\"Utilization\","
        + "\"averageUtilization\":50}}}]" + behavior + "}}"));
    scenario.idle();
  }

  /** Sets every Pod's CPU usage. */
  private void cpu(String usage) {
    for (MapValue pod : pods().list()) {
      controllers.podMetrics().setContainerUsage("ns", Meta.metaString(pod, "name"), "c",
          usage, "10Mi");
    }
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

  @Test
  void scalesUpOnHighCpuThenDownOnceTheStabilizationWindowHasPassed() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpa("");
    cpu("200m"); // 100% of the 200m request against a 50% target

    scenario.advance(14);
    assertThat(replicas()).as("before the first sync").isEqualTo(2);
    scenario.advance(1);
    Instant scaledUp = clock.instant();
    // ratio 2.0 on 2 ready Pods: 4, which the legacy limit max(2 x 2, 4) allows
    assertThat(replicas()).isEqualTo(4);
    MapValue status = hpaStatus();
    assertThat(Nested.integer(status, "currentReplicas")).isEqualTo(2);
    assertThat(Nested.integer(status, "desiredReplicas")).isEqualTo(4);
    assertThat(Nested.str(status, "lastScaleTime")).isEqualTo(Meta.formatTime(scaledUp));
    assertThat(Nested.list(status, "currentMetrics")).containsExactly(Json.read(
        "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"current\":{"
            + "\"averageValue\":\"200m\",\"averageUtilization\":100}}}"));
    assertCondition(status, "AbleToScale", "True", "SucceededRescale",
        "the HPA controller was able to update the target scale to 4");
    assertCondition(status, "ScalingActive", "True", "ValidMetricFound",
        "the HPA was able to successfully calculate a replica count from cpu resource"
            + " utilization (percentage of request)");
    assertCondition(status, "ScalingLimited", "False", "DesiredWithinRange",
        "the desired count is within the acceptable range");
    assertThat(rescaleEvents()).containsExactly("New size: 4; reason: cpu resource utilization"
        + " (percentage of request) above target");

    scenario.markPodsReady("ns");
    cpu("20m"); // 10%: one Pod would do
    scenario.advance(15);
    assertThat(replicas()).as("held by the downscale stabilization").isEqualTo(4);
    status = hpaStatus();
    assertThat(Nested.integer(status, "currentReplicas")).isEqualTo(4);
    assertThat(Nested.integer(status, "desiredReplicas")).isEqualTo(4);
    assertCondition(status, "AbleToScale", "True", "ScaleDownStabilized",
        "recent recommendations were higher than current one, applying the highest recent"
            + " recommendation");
    assertThat(Nested.list(status, "currentMetrics")).containsExactly(Json.read(
        "{\"type\":\"Resource\",\"resource\":{\"name\":\"cpu\",\"current\":{"
            + "\"averageValue\":\"20m\",\"averageUtilization\":10}}}"));

    // the recommendation of 4, made at 00:00:15, counts while it is not older than 5 minutes:
    // the 19 syncs from 00:00:45 to 00:05:15 keep 4
    for (int sync = 0; sync < 19; sync++) {
      scenario.advance(15);
      assertThat(replicas()).as("at " + clock.instant()).isEqualTo(4);
    }
    scenario.advance(15);
    assertThat(replicas()).isEqualTo(1);
    status = hpaStatus();
    assertCondition(status, "AbleToScale", "True", "SucceededRescale",
        "the HPA controller was able to update the target scale to 1");
    assertThat(Nested.str(status, "lastScaleTime")).isEqualTo(Meta.formatTime(clock.instant()));
    assertThat(rescaleEvents()).containsExactly(
        "New size: 4; reason: cpu resource utilization (percentage of request) above target",
        "New size: 1; reason: All metrics below target");
  }

  @Test
  void behaviorPoliciesLimitEachStep() {
    deployment(2);
    scenario.markPodsReady("ns");
    // up: at most 1 Pod per 60 s; down: no window, at most 1 Pod per 60 s
    hpa(",\"behavior\":{\"scaleUp\":{\"policies\":[{\"type\":\"Pods\",\"value\":1,"
        + "\"periodSeconds\":60}]},\"scaleDown\":{\"stabilizationWindowSeconds\":0,"
        + "\"policies\":[{\"type\":\"Pods\",\"value\":1,\"periodSeconds\":60}]}}");
    cpu("200m");

    scenario.advance(15);
    assertThat(replicas()).isEqualTo(3);
    assertCondition(hpaStatus(), "ScalingLimited", "True", "ScaleUpLimit",
        "the desired replica count is increasing faster than the maximum scale rate");
    scenario.markPodsReady("ns");
    cpu("200m");
    scenario.advance(15);
    assertThat(replicas()).as("within the 60 s period").isEqualTo(3);
    scenario.advance(15);
    scenario.advance(15);
    assertThat(replicas()).isEqualTo(3);
    scenario.advance(15); // 60 s after the first step
    assertThat(replicas()).isEqualTo(4);

    scenario.markPodsReady("ns");
    cpu("20m");
    scenario.advance(60);
    assertThat(replicas()).isEqualTo(3);
    assertCondition(hpaStatus(), "ScalingLimited", "True", "ScaleDownLimit",
        "the desired replica count is decreasing faster than the maximum scale rate");
  }

  @Test
  void missingMetricsAndAZeroTargetAreReportedAsKube() {
    deployment(2);
    scenario.markPodsReady("ns");
    hpa("");

    scenario.advance(15);
    MapValue status = hpaStatus();
    assertCondition(status, "ScalingActive", "False", "FailedGetResourceMetric",
        "the HPA was unable to compute the replica count: failed to get cpu utilization:"
            + " unable to get metrics for resource cpu: no metrics returned from resource"
            + " metrics API");
    assertThat(replicas()).isEqualTo(2);
    List<String> reasons = api.resources(EVENTS).namespace("ns").list().stream()
        .map(e -> Nested.str(e, "reason")).toList();
    assertThat(reasons).contains("FailedGetResourceMetric", "FailedComputeMetricsReplicas");

    api.resources(DEPLOYMENTS).namespace("ns").patch("web",
        io.apiserver4j.apimachinery.patch.PatchType.MERGE_PATCH, "{\"spec\":{\"replicas\":0}}");
    scenario.idle();
    scenario.advance(15);
    assertCondition(hpaStatus(), "ScalingActive", "False", "ScalingDisabled",
        "scaling is disabled since the replica count of the target is zero");
    assertThat(Value.of(replicas())).isEqualTo(Value.of(0L));
  }
}
