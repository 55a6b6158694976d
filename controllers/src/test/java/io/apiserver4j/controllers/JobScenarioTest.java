/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The job controller through the public API, Pods finished by the test through
 * {@code pods/status} as a kubelet would. Expected names, labels, finalizers, conditions,
 * reasons and messages are kube's (pkg/controller/job, the batch/v1 API docs and kube's e2e
 * expectations such as {@code CompletionsReached}).
 */
class JobScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");
  private static final String SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}";
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

  private ResourceClient jobs() {
    return api.resources(JOBS).namespace("ns");
  }

  private MapValue createJob(String name, String spec) {
    return jobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
        + "{\"name\":\"" + name + "\"},\"spec\":{" + spec + (spec.isEmpty() ? "" : ",")
        + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"batch\"}},\"spec\":{\"restartPolicy\":"
        + "\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}"));
  }

  /** The Job's Pods not being deleted. */
  private List<MapValue> livePods() {
    return pods().list().stream()
        .filter(p -> !Nested.has(p, "metadata", "deletionTimestamp")
            && Nested.str(p, "status", "phase").matches("|Pending|Running"))
        .toList();
  }

  private MapValue status(String job) {
    return Nested.map(jobs().get(job), "status");
  }

  private List<String> conditionTypes(String job) {
    return Nested.list(status(job), "conditions").stream()
        .map(c -> Nested.str(c, "type") + "=" + Nested.str(c, "status")).toList();
  }

  private MapValue condition(String job, String type) {
    return (MapValue) Nested.list(status(job), "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals(type)).findFirst().orElseThrow();
  }

  /** Sets the Pod's phase (and a terminated container with {@code exitCode}) as a kubelet. */
  private void finish(MapValue pod, String phase, int exitCode) {
    MapValue current = pods().get(Meta.metaString(pod, "name"));
    String t = Meta.formatTime(clock.instant());
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\",\"conditions\":"
        + "[{\"type\":\"Ready\",\"status\":\"False\",\"lastTransitionTime\":\"" + t + "\"}],"
        + "\"containerStatuses\":[{\"name\":\"c\",\"image\":\"busybox\",\"imageID\":\"\","
        + "\"ready\":false,\"restartCount\":0,\"state\":{\"terminated\":{\"exitCode\":"
        + exitCode + ",\"startedAt\":\"" + t + "\",\"finishedAt\":\"" + t + "\"}}}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns")
        .name(Meta.metaString(pod, "name")).subresource("status")
        .options(UpdateOptions.defaults()).body(current.with("status", status)).build())
        .orThrow();
  }

  @Test
  void jobOfThreeCompletionsTwoAtATimeCompletesAsKube() {
    MapValue job = createJob("pi", "\"completions\":3,\"parallelism\":2");
    String uid = Meta.metaString(job, "uid");
    scenario.idle();
    List<MapValue> first = livePods();
    assertThat(first).hasSize(2);
    for (MapValue p : first) {
      assertThat(Meta.metaString(p, "name")).matches("pi-" + SUFFIX);
      assertThat(Meta.labels(p)).containsAllEntriesOf(Map.of(
          "batch.kubernetes.io/controller-uid", uid, "batch.kubernetes.io/job-name", "pi",
          "controller-uid", uid, "job-name", "pi", "app", "batch"));
      assertThat(Meta.finalizers(p)).containsExactly(FINALIZER);
      assertThat(Nested.list(p, "metadata", "ownerReferences")).containsExactly(Json.read(
          "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"pi\",\"uid\":\"" + uid
              + "\",\"controller\":true,\"blockOwnerDeletion\":true}"));
    }
    MapValue st = status("pi");
    assertThat(Nested.integer(st, "active")).isEqualTo(2);
    assertThat(Nested.integer(st, "ready")).isZero();
    assertThat(Nested.has(st, "ready")).isTrue();
    assertThat(Nested.has(st, "terminating")).isTrue();
    assertThat(Nested.map(st, "uncountedTerminatedPods")).isEqualTo(MapValue.empty());
    assertThat(Nested.str(st, "startTime")).isEqualTo("2026-01-01T00:00:00Z");

    finish(first.get(0), "Succeeded", 0);
    scenario.idle();
    // the finished Pod is counted and loses its finalizer; a third Pod replaces it
    assertThat(Meta.finalizers(pods().get(Meta.metaString(first.get(0), "name")))).isEmpty();
    assertThat(livePods()).hasSize(2);
    assertThat(Nested.integer(status("pi"), "succeeded")).isEqualTo(1);

    clock.set(clock.instant().plusSeconds(30));
    for (MapValue p : livePods()) {
      finish(p, "Succeeded", 0);
    }
    scenario.idle();
    st = status("pi");
    assertThat(Nested.integer(st, "succeeded")).isEqualTo(3);
    assertThat(Nested.has(st, "active")).isFalse();
    assertThat(conditionTypes("pi")).containsExactly("SuccessCriteriaMet=True", "Complete=True");
    MapValue complete = condition("pi", "Complete");
    assertThat(Nested.str(complete, "reason")).isEqualTo("CompletionsReached");
    assertThat(Nested.str(complete, "message"))
        .isEqualTo("Reached expected number of succeeded pods");
    assertThat(Nested.str(st, "completionTime")).isEqualTo("2026-01-01T00:00:30Z");
    assertThat(pods().list()).allSatisfy(p -> assertThat(Meta.finalizers(p)).isEmpty());
  }

  @Test
  void failedPodIsReplacedAfterBackoffAndTheLimitFailsTheJob() {
    createJob("flaky", "\"backoffLimit\":1");
    scenario.idle();
    MapValue pod = livePods().get(0);
    finish(pod, "Failed", 1);
    scenario.idle();
    assertThat(Nested.integer(status("flaky"), "failed")).isEqualTo(1);
    // kube's 10 s backoff after the first failure, on the server clock
    assertThat(livePods()).isEmpty();
    clock.set(clock.instant().plusSeconds(9));
    scenario.idle();
    assertThat(livePods()).isEmpty();
    clock.set(clock.instant().plusSeconds(1));
    scenario.idle();
    assertThat(livePods()).hasSize(1);
    finish(livePods().get(0), "Failed", 1);
    scenario.idle();
    MapValue st = status("flaky");
    assertThat(Nested.integer(st, "failed")).isEqualTo(2);
    assertThat(conditionTypes("flaky")).containsExactly("FailureTarget=True", "Failed=True");
    MapValue failed = condition("flaky", "Failed");
    assertThat(Nested.str(failed, "reason")).isEqualTo("BackoffLimitExceeded");
    assertThat(Nested.str(failed, "message"))
        .isEqualTo("Job has reached the specified backoff limit");
    assertThat(Nested.has(st, "completionTime")).isFalse();
  }

  @Test
  void activeDeadlineFailsTheJobAndDeletesItsPods() {
    createJob("slow", "\"parallelism\":2,\"completions\":4,\"activeDeadlineSeconds\":60");
    scenario.idle();
    assertThat(livePods()).hasSize(2);
    clock.set(clock.instant().plusSeconds(60));
    scenario.idle();
    assertThat(pods().list()).isEmpty();
    assertThat(conditionTypes("slow")).containsExactly("FailureTarget=True", "Failed=True");
    assertThat(Nested.str(condition("slow", "Failed"), "reason")).isEqualTo("DeadlineExceeded");
    assertThat(Nested.str(condition("slow", "Failed"), "message"))
        .isEqualTo("Job was active longer than specified deadline");
    assertThat(Nested.integer(status("slow"), "failed")).isEqualTo(2);
  }

  @Test
  void indexedJobGivesEachPodItsIndex() {
    createJob("idx", "\"completions\":3,\"parallelism\":3,\"completionMode\":\"Indexed\"");
    scenario.idle();
    List<MapValue> all = livePods();
    assertThat(all).hasSize(3);
    for (MapValue p : all) {
      String ix = Meta.annotations(p).get("batch.kubernetes.io/job-completion-index");
      assertThat(Meta.labels(p)).containsEntry("batch.kubernetes.io/job-completion-index", ix);
      assertThat(Meta.metaString(p, "name")).matches("idx-" + ix + "-" + SUFFIX);
      assertThat(Nested.str(p, "spec", "hostname")).isEqualTo("idx-" + ix);
      assertThat(Nested.list(Nested.list(p, "spec", "containers").get(0), "env"))
          .contains(Json.read("{\"name\":\"JOB_COMPLETION_INDEX\",\"valueFrom\":{\"fieldRef\":"
              + "{\"apiVersion\":\"v1\",\"fieldPath\":"
              + "\"metadata.labels['batch.kubernetes.io/job-completion-index']\"}}}"));
    }
    for (MapValue p : all) {
      if (!Meta.annotations(p).get("batch.kubernetes.io/job-completion-index").equals("1")) {
        finish(p, "Succeeded", 0);
      }
    }
    scenario.idle();
    assertThat(Nested.str(status("idx"), "completedIndexes")).isEqualTo("0,2");
    assertThat(Nested.integer(status("idx"), "succeeded")).isEqualTo(2);
  }

  @Test
  void podFailurePolicyFailJobUsesKubesMessage() {
    createJob("pfp", "\"podFailurePolicy\":{\"rules\":[{\"action\":\"FailJob\",\"onExitCodes\":"
        + "{\"operator\":\"In\",\"values\":[42]}}]}");
    scenario.idle();
    MapValue pod = livePods().get(0);
    finish(pod, "Failed", 42);
    scenario.idle();
    assertThat(conditionTypes("pfp")).containsExactly("FailureTarget=True", "Failed=True");
    MapValue failed = condition("pfp", "Failed");
    assertThat(Nested.str(failed, "reason")).isEqualTo("PodFailurePolicy");
    assertThat(Nested.str(failed, "message")).isEqualTo("Container c for pod ns/"
        + Meta.metaString(pod, "name") + " failed with exit code 42 matching FailJob rule at "
        + "index 0");
  }

  @Test
  void ignoredFailuresDoNotCountTowardsTheBackoffLimit() {
    createJob("ign", "\"backoffLimit\":0,\"podFailurePolicy\":{\"rules\":[{\"action\":"
        + "\"Ignore\",\"onExitCodes\":{\"operator\":\"In\",\"values\":[7]}}]}");
    scenario.idle();
    finish(livePods().get(0), "Failed", 7);
    scenario.idle();
    assertThat(Nested.has(status("ign"), "failed")).isFalse();
    assertThat(Nested.list(status("ign"), "conditions")).isEmpty();
    // an ignored failure still backs off (kube's newBackoffRecord takes every failed Pod)
    assertThat(livePods()).isEmpty();
    clock.set(clock.instant().plusSeconds(10));
    scenario.idle();
    assertThat(livePods()).hasSize(1);
    assertThat(Nested.list(status("ign"), "conditions")).isEmpty();
  }

  @Test
  void suspendedJobHasNoPodsAndResumingStartsThem() {
    createJob("sus", "\"suspend\":true");
    scenario.idle();
    assertThat(livePods()).isEmpty();
    MapValue suspended = condition("sus", "Suspended");
    assertThat(Nested.str(suspended, "status")).isEqualTo("True");
    assertThat(Nested.str(suspended, "reason")).isEqualTo("JobSuspended");
    assertThat(Nested.str(suspended, "message")).isEqualTo("Job suspended");
    assertThat(Nested.has(status("sus"), "startTime")).isFalse();
    clock.set(clock.instant().plusSeconds(5));
    jobs().patch("sus", PatchType.MERGE_PATCH, "{\"spec\":{\"suspend\":false}}");
    scenario.idle();
    assertThat(livePods()).hasSize(1);
    MapValue resumed = condition("sus", "Suspended");
    assertThat(Nested.str(resumed, "status")).isEqualTo("False");
    assertThat(Nested.str(resumed, "reason")).isEqualTo("JobResumed");
    assertThat(Nested.str(status("sus"), "startTime")).isEqualTo("2026-01-01T00:00:05Z");
  }

  @Test
  void successPolicyEndsAnIndexedJobEarly() {
    createJob("sp", "\"completions\":3,\"parallelism\":3,\"completionMode\":\"Indexed\","
        + "\"successPolicy\":{\"rules\":[{\"succeededIndexes\":\"0\"}]}");
    scenario.idle();
    for (MapValue p : livePods()) {
      if (Meta.annotations(p).get("batch.kubernetes.io/job-completion-index").equals("0")) {
        finish(p, "Succeeded", 0);
      }
    }
    scenario.idle();
    assertThat(conditionTypes("sp")).containsExactly("SuccessCriteriaMet=True", "Complete=True");
    MapValue c = condition("sp", "Complete");
    assertThat(Nested.str(c, "reason")).isEqualTo("SuccessPolicy");
    assertThat(Nested.str(c, "message")).isEqualTo("Matched rules at index 0");
    assertThat(pods().list().stream().filter(p -> Nested.str(p, "status", "phase")
        .matches("|Pending"))).isEmpty();
    assertThat(Value.of(Nested.str(status("sp"), "completedIndexes"))).isEqualTo(Value.of("0"));
  }

  private List<MapValue> events(String job, String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "involvedObject", "name").equals(job))
        .filter(e -> Nested.str(e, "reason").equals(reason)).toList();
  }

  private List<String> messages(String job, String reason) {
    return events(job, reason).stream().map(e -> Nested.str(e, "message")).toList();
  }

  @Test
  void aCompletedJobRecordsKubesEvents() {
    MapValue job = createJob("pi", "\"completions\":2,\"parallelism\":2");
    scenario.idle();
    List<MapValue> pods = livePods();
    // RealPodControl: "Created pod: %v", Normal, from the job-controller
    assertThat(messages("pi", "SuccessfulCreate")).containsExactlyInAnyOrderElementsOf(
        pods.stream().map(p -> "Created pod: " + Meta.metaString(p, "name")).toList());
    for (MapValue e : events("pi", "SuccessfulCreate")) {
      assertThat(Nested.str(e, "type")).isEqualTo("Normal");
      assertThat(Nested.str(e, "source", "component")).isEqualTo("job-controller");
      assertThat(Nested.str(e, "involvedObject", "kind")).isEqualTo("Job");
      assertThat(Nested.str(e, "involvedObject", "apiVersion")).isEqualTo("batch/v1");
      assertThat(Nested.str(e, "involvedObject", "uid")).isEqualTo(Meta.metaString(job, "uid"));
    }
    for (MapValue p : pods) {
      finish(p, "Succeeded", 0);
    }
    scenario.idle();
    // recordJobFinished
    assertThat(messages("pi", "Completed")).containsExactly("Job completed");
    assertThat(Nested.str(events("pi", "Completed").get(0), "type")).isEqualTo("Normal");
  }

  @Test
  void theBackoffLimitIsAWarningWithTheConditionsReasonAndMessage() {
    createJob("flaky", "\"backoffLimit\":0");
    scenario.idle();
    finish(livePods().get(0), "Failed", 1);
    scenario.idle();
    assertThat(messages("flaky", "BackoffLimitExceeded"))
        .containsExactly("Job has reached the specified backoff limit");
    assertThat(Nested.str(events("flaky", "BackoffLimitExceeded").get(0), "type"))
        .isEqualTo("Warning");
  }

  @Test
  void theActiveDeadlineDeletesPodsWithEvents() {
    createJob("slow", "\"parallelism\":2,\"completions\":4,\"activeDeadlineSeconds\":60");
    scenario.idle();
    List<String> names = livePods().stream().map(p -> Meta.metaString(p, "name")).toList();
    clock.set(clock.instant().plusSeconds(60));
    scenario.idle();
    assertThat(messages("slow", "SuccessfulDelete")).containsExactlyInAnyOrderElementsOf(
        names.stream().map(n -> "Deleted pod: " + n).toList());
    assertThat(messages("slow", "DeadlineExceeded"))
        .containsExactly("Job was active longer than specified deadline");
  }

  @Test
  void suspendingAndResumingAreEvents() {
    createJob("sus", "\"suspend\":true");
    scenario.idle();
    assertThat(messages("sus", "Suspended")).containsExactly("Job suspended");
    jobs().patch("sus", PatchType.MERGE_PATCH, "{\"spec\":{\"suspend\":false}}");
    scenario.idle();
    assertThat(messages("sus", "Resumed")).containsExactly("Job resumed");
  }
}
