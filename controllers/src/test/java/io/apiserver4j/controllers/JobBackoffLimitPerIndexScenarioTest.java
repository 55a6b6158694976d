/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An Indexed Job with {@code spec.backoffLimitPerIndex} through the public API on the test
 * clock, its Pods failed and succeeded by the test through {@code pods/status} as a kubelet
 * would. Expected values are kube's: the per-index delay (10 s doubled per failure of the
 * index, job_controller.go's {@code getRemainingTimePerIndex}), the
 * {@code batch.kubernetes.io/job-index-failure-count} annotation of each replacement, the failed
 * Pod kept (finalizer and all) until its replacement exists, {@code status.failedIndexes} and the
 * {@code FailedIndexes} condition with kube's message.
 */
class JobBackoffLimitPerIndexScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");
  private static final String INDEX = "batch.kubernetes.io/job-completion-index";
  private static final String FAILURE_COUNT = "batch.kubernetes.io/job-index-failure-count";
  private static final String FINALIZER = "batch.kubernetes.io/job-tracking";

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("job");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private MapValue status() {
    return Nested.map(api.resources(JOBS).namespace("ns").get("idx"), "status");
  }

  /** The Job's Pods of {@code index} not finished nor being deleted. */
  private List<MapValue> live(String index) {
    return pods().list().stream()
        .filter(p -> !Nested.has(p, "metadata", "deletionTimestamp")
            && Nested.str(p, "status", "phase").matches("|Pending|Running")
            && index.equals(Meta.annotations(p).get(INDEX)))
        .toList();
  }

  private MapValue only(String index) {
    List<MapValue> l = live(index);
    assertThat(l).as("live Pods of index %s", index).hasSize(1);
    return l.get(0);
  }

  /** Sets the Pod's phase with a terminated container finished now, as a kubelet. */
  private void finish(MapValue pod, String phase) {
    MapValue current = pods().get(Meta.metaString(pod, "name"));
    String t = Meta.formatTime(clock.instant());
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\",\"conditions\":"
        + "[{\"type\":\"Ready\",\"status\":\"False\",\"lastTransitionTime\":\"" + t + "\"}],"
        + "\"containerStatuses\":[{\"name\":\"c\",\"image\":\"busybox\",\"imageID\":\"\","
        + "\"ready\":false,\"restartCount\":0,\"state\":{\"terminated\":{\"exitCode\":"
        + (phase.equals("Failed") ? 1 : 0) + ",\"startedAt\":\"" + t + "\",\"finishedAt\":\""
        + t + "\"}}}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns")
        .name(Meta.metaString(pod, "name")).subresource("status")
        .options(UpdateOptions.defaults()).body(current.with("status", status)).build())
        .orThrow();
  }

  @Test
  void eachIndexBacksOffOnItsOwnAndAFailedIndexFailsTheJob() {
    api.resources(JOBS).namespace("ns").create(Json.read("{\"apiVersion\":\"batch/v1\","
        + "\"kind\":\"Job\",\"metadata\":{\"name\":\"idx\"},\"spec\":{\"completions\":3,"
        + "\"parallelism\":3,\"completionMode\":\"Indexed\",\"backoffLimitPerIndex\":2,"
        + "\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
        + "\"image\":\"busybox\"}]}}}}"));
    scenario.idle();
    for (String ix : List.of("0", "1", "2")) {
      assertThat(Meta.annotations(only(ix))).containsEntry(FAILURE_COUNT, "0")
          .doesNotContainKey("batch.kubernetes.io/job-index-ignored-failure-count");
    }
    // the defaulted backoffLimit of a per-index Job: MaxInt32
    assertThat(Nested.integer(api.resources(JOBS).namespace("ns").get("idx"), "spec",
        "backoffLimit")).isEqualTo(Integer.MAX_VALUE);

    MapValue first = only("0");
    finish(first, "Failed");
    scenario.idle();
    // the failed Pod waits, finalizer and all, for its replacement: not counted yet
    assertThat(Meta.finalizers(pods().get(Meta.metaString(first, "name"))))
        .containsExactly(FINALIZER);
    assertThat(Nested.integer(status(), "failed")).isZero();
    assertThat(Nested.str(status(), "failedIndexes")).isEmpty();
    assertThat(live("0")).isEmpty();
    assertThat(live("1")).hasSize(1);
    scenario.advance(9);
    assertThat(live("0")).as("within the 10 s delay of index 0").isEmpty();
    scenario.advance(1);
    MapValue second = only("0");
    assertThat(Meta.annotations(second)).containsEntry(FAILURE_COUNT, "1");
    // once replaced, the failed Pod is counted and released (its deletion is podgc's)
    assertThat(Meta.finalizers(pods().get(Meta.metaString(first, "name")))).isEmpty();
    assertThat(Nested.integer(status(), "failed")).isEqualTo(1);

    // the second failure of the index doubles its delay, and index 1 is not held up by it
    finish(second, "Failed");
    finish(only("1"), "Succeeded");
    scenario.idle();
    assertThat(Nested.str(status(), "completedIndexes")).isEqualTo("1");
    scenario.advance(19);
    assertThat(live("0")).as("within the 20 s delay of index 0").isEmpty();
    scenario.advance(1);
    MapValue third = only("0");
    assertThat(Meta.annotations(third)).containsEntry(FAILURE_COUNT, "2");
    assertThat(Nested.integer(status(), "failed")).isEqualTo(2);

    // a third failure reaches backoffLimitPerIndex: the index fails and is not recreated
    finish(third, "Failed");
    scenario.idle();
    MapValue st = status();
    assertThat(Nested.str(st, "failedIndexes")).isEqualTo("0");
    assertThat(Nested.integer(st, "failed")).isEqualTo(3);
    scenario.advance(600);
    assertThat(live("0")).isEmpty();
    assertThat(Nested.list(status(), "conditions")).isEmpty();

    // once every index succeeded or failed, the Job fails with kube's reason and message
    finish(only("2"), "Succeeded");
    scenario.idle();
    st = status();
    assertThat(Nested.str(st, "completedIndexes")).isEqualTo("1,2");
    assertThat(Nested.str(st, "failedIndexes")).isEqualTo("0");
    assertThat(Nested.integer(st, "succeeded")).isEqualTo(2);
    assertThat(Nested.list(st, "conditions").stream().map(c -> Map.of("type",
        Nested.str(c, "type"), "reason", Nested.str(c, "reason"), "message",
        Nested.str(c, "message"))).toList()).containsExactly(
            Map.of("type", "FailureTarget", "reason", "FailedIndexes", "message",
                "Job has failed indexes"),
            Map.of("type", "Failed", "reason", "FailedIndexes", "message",
                "Job has failed indexes"));
    assertThat(Nested.has(st, "completionTime")).isFalse();
  }
}
