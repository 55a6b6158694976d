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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kube's {@code TestSyncJobWithJobBackoffLimitPerIndex} and the per-index ones of
 * {@code TestSyncJobWithJobSuccessPolicy} (pkg/controller/job/job_controller_test.go, gates at
 * 1.36's defaults) with kube's expected status: the Job and its Pods ({@code mypod-<i>} in
 * {@code default}, controlled, with the tracking finalizer) exist before the controller starts,
 * then the status once it is idle. kube's fixtures finished at the zero time, so here they are
 * created an hour before the controller starts, past any backoff. kube checks one sync; a case
 * is taken where that sync's status is also the settled one, and a Pod that must stay
 * terminating (kube's fake Pod control deletes nothing) is bound to a Node, as a deleted bound
 * Pod waits for its kubelet. kube's "replacement pod creation is delayed" case settles, once
 * the replacement exists, to its next case ("single failed pod replaced already"), so it is
 * checked against that one's status.
 */
class JobBackoffLimitPerIndexTableTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");
  private static final String PER_INDEX = "\"completionMode\":\"Indexed\","
      + "\"backoffLimitPerIndex\":1";
  private static final String MAX_INT = "\"backoffLimit\":2147483647";
  private static final String FAILED_INDEXES = "FailedIndexes|Job has failed indexes";

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  /**
   * One case.
   *
   * @param spec the Job's spec fields besides the template
   * @param initialStatus the Job's status before the controller starts, JSON fields or empty
   * @param pods per Pod: {@code index:phase}, then {@code :fc=N} (its
   *     {@code job-index-failure-count}), {@code :exit=N@container}, {@code :node}
   * @param failedIndexes the expected {@code status.failedIndexes}, null when absent
   * @param conditions the expected conditions as {@code type|reason|message}
   */
  record Case(String name, String spec, String initialStatus, List<String> pods, long active,
      long succeeded, long failed, long terminating, String completedIndexes,
      String failedIndexes, List<String> conditions) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Arguments> cases() {
    String podFailurePolicy = ",\"podFailurePolicy\":{\"rules\":[{\"action\":\"%s\","
        + "\"onExitCodes\":{\"operator\":\"In\",\"values\":[3]}}]}";
    String failJob = "Container x for pod default/mypod-0 failed with exit code 3 matching "
        + "FailJob rule at index 0";
    String maxFailed = "MaxFailedIndexesExceeded|Job has exceeded the specified maximal number "
        + "of failed indexes";
    String policyMet = "SuccessPolicy|Matched rules at index 0";
    return Stream.of(
        new Case("successful job after a single failure within index",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX, "",
            List.of("0:Failed:fc=0", "0:Succeeded:fc=1", "1:Succeeded:fc=0"), 0, 2, 1, 0,
            "0,1", "", List.of("SuccessCriteriaMet|CompletionsReached|Reached expected number "
                + "of succeeded pods", "Complete|CompletionsReached|Reached expected number of "
                + "succeeded pods")),
        new Case("single failed pod, not counted as the replacement pod creation is delayed",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX, "",
            List.of("0:Failed:fc=0"), 2, 0, 1, 0, "", "", List.of()),
        new Case("single failed pod replaced already",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX, "",
            List.of("0:Failed:fc=0", "0:Pending:fc=1"), 2, 0, 1, 0, "", "", List.of()),
        new Case("single failed index due to exceeding the backoff limit per index, the job "
            + "continues", "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX,
            "", List.of("0:Failed:fc=1"), 1, 0, 1, 0, "", "0", List.of()),
        new Case("single failed index due to FailIndex action, the job continues",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX
                + String.format(podFailurePolicy, "FailIndex"), "",
            List.of("0:Failed:fc=0:exit=3@c"), 1, 0, 1, 0, "", "0", List.of()),
        new Case("job failed index due to FailJob action",
            "\"parallelism\":2,\"completions\":2,\"backoffLimit\":6," + PER_INDEX
                + String.format(podFailurePolicy, "FailJob"), "",
            List.of("0:Failed:fc=0:exit=3@x"), 0, 0, 1, 0, "", "",
            List.of("FailureTarget|PodFailurePolicy|" + failJob,
                "Failed|PodFailurePolicy|" + failJob)),
        new Case("job pod failure ignored due to matching Ignore action",
            "\"parallelism\":2,\"completions\":2,\"backoffLimit\":6," + PER_INDEX
                + String.format(podFailurePolicy, "Ignore"), "",
            List.of("0:Failed:fc=0:exit=3@x"), 2, 0, 0, 0, "", "", List.of()),
        new Case("job failed due to exceeding backoffLimit before backoffLimitPerIndex",
            "\"parallelism\":2,\"completions\":2,\"backoffLimit\":1," + PER_INDEX, "",
            List.of("0:Failed:fc=0", "1:Failed:fc=0"), 0, 0, 2, 0, "", "",
            List.of("FailureTarget|BackoffLimitExceeded|Job has reached the specified backoff "
                + "limit", "Failed|BackoffLimitExceeded|Job has reached the specified backoff "
                + "limit")),
        new Case("job failed due to failed indexes",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX, "",
            List.of("0:Failed:fc=1", "1:Succeeded:fc=0"), 0, 1, 1, 0, "1", "0",
            List.of("FailureTarget|" + FAILED_INDEXES, "Failed|" + FAILED_INDEXES)),
        new Case("job failed due to exceeding max failed indexes",
            "\"parallelism\":4,\"completions\":4," + MAX_INT + "," + PER_INDEX
                + ",\"maxFailedIndexes\":1", "",
            List.of("0:Failed:fc=1", "1:Succeeded:fc=0", "2:Failed:fc=1", "3:Running:fc=0:node"),
            0, 1, 3, 1, "1", "0,2", List.of("FailureTarget|" + maxFailed)),
        new Case("job with successPolicy and backoffLimitPerIndex; job has a failed condition "
            + "when job meets to both successPolicy and backoffLimitPerIndex",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX
                + ",\"successPolicy\":{\"rules\":[{\"succeededIndexes\":\"0,1\","
                + "\"succeededCount\":1}]}", "",
            List.of("0:Failed:fc=1", "1:Succeeded"), 0, 1, 1, 0, "1", "0",
            List.of("FailureTarget|" + FAILED_INDEXES, "Failed|" + FAILED_INDEXES)),
        new Case("job with successPolicy and backoffLimitPerIndex; job with SuccessCriteriaMet "
            + "has never been transitioned to FailureTarget and Failed even if job meet "
            + "backoffLimitPerIndex",
            "\"parallelism\":2,\"completions\":2," + MAX_INT + "," + PER_INDEX
                + ",\"successPolicy\":{\"rules\":[{\"succeededIndexes\":\"1\"}]}",
            "\"succeeded\":1,\"terminating\":0,\"completedIndexes\":\"1\","
                + "\"uncountedTerminatedPods\":{},\"conditions\":[{\"type\":"
                + "\"SuccessCriteriaMet\",\"status\":\"True\",\"reason\":\"SuccessPolicy\","
                + "\"message\":\"Matched rules at index 0\",\"lastProbeTime\":"
                + "\"2026-01-01T00:00:00Z\",\"lastTransitionTime\":\"2026-01-01T00:00:00Z\"}]",
            List.of("0:Failed:fc=1", "1:Succeeded"), 0, 1, 1, 0, "1", "0",
            List.of("SuccessCriteriaMet|" + policyMet, "Complete|" + policyMet)))
        .map(Arguments::of);
  }

  @AfterEach
  void stop() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncJob(Case k) {
    AtomicLong uids = new AtomicLong();
    api = ApiServer.builder().bootstrap(false).clock(clock)
        .uidSource(() -> "uid-" + uids.incrementAndGet()).build();
    api.resources("v1", "namespaces").create(Json.read(
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"default\"}}"));
    MapValue job = jobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
        + "\"metadata\":{\"name\":\"foobar\"},\"spec\":{" + k.spec() + ",\"template\":{\"spec\":"
        + "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"foo/bar\"}]}}}}"));
    if (!k.initialStatus().isEmpty()) {
      api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, JOBS).namespace("default")
          .name("foobar").subresource("status").options(UpdateOptions.defaults())
          .body(job.with("status", Json.read("{" + k.initialStatus() + "}"))).build())
          .orThrow();
    }
    List<String> fixtures = new ArrayList<>();
    for (int i = 0; i < k.pods().size(); i++) {
      fixtures.add(pod(job, "mypod-" + i, k.pods().get(i)));
    }
    clock.set(clock.instant().plus(Duration.ofHours(1)));
    controllers = ControllerManager.builder(api).clock(clock).controllers("job").start();
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();

    MapValue st = Nested.map(jobs().get("foobar"), "status");
    assertThat(Nested.integer(st, "active")).as("active").isEqualTo(k.active());
    assertThat(Nested.integer(st, "succeeded")).as("succeeded").isEqualTo(k.succeeded());
    assertThat(Nested.integer(st, "failed")).as("failed").isEqualTo(k.failed());
    assertThat(Nested.integer(st, "terminating")).as("terminating")
        .isEqualTo(k.terminating());
    assertThat(Nested.str(st, "completedIndexes")).as("completedIndexes")
        .isEqualTo(k.completedIndexes());
    assertThat(st.containsKey("failedIndexes") ? Nested.str(st, "failedIndexes") : null)
        .as("failedIndexes").isEqualTo(k.failedIndexes());
    assertThat(Nested.map(st, "uncountedTerminatedPods")).as("uncountedTerminatedPods")
        .isEqualTo(MapValue.empty());
    assertThat(Nested.list(st, "conditions").stream().map(c -> Nested.str(c, "type") + "|"
        + Nested.str(c, "reason") + "|" + Nested.str(c, "message")).toList())
        .as("conditions").isEqualTo(k.conditions());
    for (var c : Nested.list(st, "conditions")) {
      assertThat(Nested.str(c, "status")).isEqualTo("True");
    }
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("default");
  }

  private ResourceClient jobs() {
    return api.resources(JOBS).namespace("default");
  }

  /** A Pod the Job controls, with the tracking finalizer, as {@code desc} describes. */
  private String pod(MapValue job, String name, String desc) {
    String[] parts = desc.split(":");
    String index = parts[0];
    String phase = parts[1];
    String failureCount = null;
    String exit = null;
    boolean node = false;
    for (int i = 2; i < parts.length; i++) {
      if (parts[i].startsWith("fc=")) {
        failureCount = parts[i].substring(3);
      } else if (parts[i].startsWith("exit=")) {
        exit = parts[i].substring(5);
      } else if (parts[i].equals("node")) {
        node = true;
      }
    }
    String uid = Meta.metaString(job, "uid");
    String ix = ",\"batch.kubernetes.io/job-completion-index\":\"" + index + "\"";
    String fc = failureCount == null ? ""
        : ",\"batch.kubernetes.io/job-index-failure-count\":\"" + failureCount + "\"";
    MapValue created = pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"batch.kubernetes.io/"
        + "controller-uid\":\"" + uid + "\",\"batch.kubernetes.io/job-name\":\"foobar\","
        + "\"controller-uid\":\"" + uid + "\",\"job-name\":\"foobar\"" + ix + "},"
        + "\"annotations\":{\"x\":\"y\"" + ix + fc + "},"
        + "\"finalizers\":[\"batch.kubernetes.io/job-tracking\"],\"ownerReferences\":[{"
        + "\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"foobar\",\"uid\":\"" + uid
        + "\",\"controller\":true,\"blockOwnerDeletion\":true}]},\"spec\":{"
        + (node ? "\"nodeName\":\"node-1\"," : "") + "\"restartPolicy\":"
        + "\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"foo/bar\"}]}}"));
    String containers = "";
    if (exit != null) {
      String[] codeAndName = exit.split("@");
      containers = ",\"containerStatuses\":[{\"name\":\"" + codeAndName[1] + "\",\"image\":"
          + "\"foo/bar\",\"imageID\":\"\",\"ready\":false,\"restartCount\":0,\"state\":"
          + "{\"terminated\":{\"exitCode\":" + codeAndName[0] + "}}}]";
    }
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\"" + containers + "}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("default").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(created.with("status", status)).build()).orThrow();
    return name;
  }
}
