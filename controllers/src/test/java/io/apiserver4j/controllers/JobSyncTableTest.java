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
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Cases of kube's {@code TestControllerSyncJob} (pkg/controller/job/job_controller_test.go)
 * with kube's expected counts: the Job and its Pods (controlled, with the tracking finalizer,
 * in the case's phases) exist before the controller starts, then the state once it is idle.
 * Only cases whose single-sync expectations are also the settled state are taken, and the
 * Pods finished an hour before the controller starts, as kube's fixtures (zero finish times)
 * are past any backoff. Terminal conditions are 1.36's: the interim condition, then the final.
 */
class JobSyncTableTest {
  private static final Duration IDLE = Duration.ofSeconds(30);
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");

  private final SettableClock clock = new SettableClock("2026-01-01T00:00:00Z");
  private ApiServer api;
  private ControllerManager controllers;

  /**
   * One case.
   *
   * @param completions -1 for none (a work queue Job)
   * @param backoffLimit -1 for the default
   * @param indexed Pod indexes and phases of an Indexed Job ("0:Succeeded"), else empty
   */
  record Case(String name, int parallelism, int completions, int backoffLimit, int pending,
      int active, int ready, int succeeded, int failed, List<String> indexed,
      int expectedCreations, int expectedDeletions, long expectedActive,
      long expectedSucceeded, long expectedFailed, long expectedReady,
      List<String> expectedConditions, String expectedReason, String expectedCompletedIndexes,
      Set<Integer> expectedCreatedIndexes) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case c(String name, int par, int comp, int backoff, int pending, int active,
      int ready, int succeeded, int failed, int creations, int deletions, long eActive,
      long eSucceeded, long eFailed, long eReady, List<String> conditions, String reason) {
    return new Case(name, par, comp, backoff, pending, active, ready, succeeded, failed,
        List.of(), creations, deletions, eActive, eSucceeded, eFailed, eReady, conditions,
        reason, "", Set.of());
  }

  private static final List<String> NONE = List.of();
  private static final List<String> COMPLETE = List.of("SuccessCriteriaMet", "Complete");
  private static final List<String> FAILED = List.of("FailureTarget", "Failed");

  static Stream<Arguments> cases() {
    return Stream.of(
        c("job start", 2, 5, 6, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, NONE, ""),
        c("WQ job start", 2, -1, 6, 0, 0, 0, 0, 0, 2, 0, 2, 0, 0, 0, NONE, ""),
        c("pending pods", 2, 5, 6, 2, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, NONE, ""),
        c("correct # of pods", 3, 5, 6, 0, 3, 2, 0, 0, 0, 0, 3, 0, 0, 2, NONE, ""),
        c("WQ job: correct # of pods", 2, -1, 6, 0, 2, 0, 0, 0, 0, 0, 2, 0, 0, 0, NONE, ""),
        c("too few active pods", 2, 5, 6, 0, 1, 0, 1, 0, 1, 0, 2, 1, 0, 0, NONE, ""),
        c("too few active pods with a dynamic job", 2, -1, 6, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 0,
            NONE, ""),
        c("too many active pods", 2, 5, 6, 0, 3, 0, 0, 0, 0, 1, 2, 0, 0, 0, NONE, ""),
        c("count ready pods when too many active pods", 2, 5, 6, 0, 3, 3, 0, 0, 0, 1, 2, 0, 0,
            2, NONE, ""),
        c("failed + succeed pods: reset backoff delay", 2, 5, 6, 0, 1, 0, 1, 1, 1, 0, 2, 1, 1,
            0, NONE, ""),
        c("new failed pod", 2, 5, 6, 0, 1, 0, 0, 1, 1, 0, 2, 0, 1, 0, NONE, ""),
        c("job finish", 2, 5, 6, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0, 0, COMPLETE, "CompletionsReached"),
        c("WQ job finishing", 2, -1, 6, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, NONE, ""),
        c("WQ job all finished", 2, -1, 6, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, COMPLETE,
            "CompletionsReached"),
        c("WQ job all finished despite one failure", 2, -1, 6, 0, 0, 0, 1, 1, 0, 0, 0, 1, 1, 0,
            COMPLETE, "CompletionsReached"),
        c("more active pods than parallelism", 2, 5, 6, 0, 10, 0, 0, 0, 0, 8, 2, 0, 0, 0, NONE,
            ""),
        c("more active pods than remaining completions", 3, 4, 6, 0, 3, 0, 2, 0, 0, 1, 2, 2, 0,
            0, NONE, ""),
        c("status change", 2, 5, 6, 0, 2, 0, 2, 0, 0, 0, 2, 2, 0, 0, NONE, ""),
        c("too many job failures", 2, 5, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, FAILED,
            "BackoffLimitExceeded"),
        c("count ready pods when job fails", 2, 3, 0, 0, 2, 2, 0, 1, 0, 2, 0, 0, 3, 0, FAILED,
            "BackoffLimitExceeded"),
        new Case("indexed job start", 2, 5, 6, 0, 0, 0, 0, 0, List.of(), 2, 0, 2, 0, 0, 0, NONE,
            "", "", Set.of(0, 1)),
        new Case("indexed job completed", 2, 3, 6, 0, 0, 0, 0, 0,
            List.of("0:Succeeded", "1:Failed", "1:Succeeded", "2:Succeeded"), 0, 0, 0, 3, 1, 0,
            COMPLETE, "CompletionsReached", "0-2", Set.of()),
        new Case("indexed job failed", 2, 3, 0, 0, 0, 0, 0, 0,
            List.of("0:Succeeded", "1:Failed", "2:Running"), 0, 1, 0, 1, 2, 0, FAILED,
            "BackoffLimitExceeded", "0", Set.of()))
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
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"));
    boolean indexed = !k.indexed().isEmpty() || !k.expectedCreatedIndexes().isEmpty();
    StringBuilder spec = new StringBuilder("\"parallelism\":" + k.parallelism());
    if (k.completions() >= 0) {
      spec.append(",\"completions\":").append(k.completions());
    }
    if (k.backoffLimit() >= 0) {
      spec.append(",\"backoffLimit\":").append(k.backoffLimit());
    }
    if (indexed) {
      spec.append(",\"completionMode\":\"Indexed\"");
    }
    MapValue job = jobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
        + "\"metadata\":{\"name\":\"foobar\"},\"spec\":{" + spec + ",\"template\":{\"spec\":"
        + "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"foo/bar\"}]}}}}"));
    List<String> fixtures = new ArrayList<>();
    int n = 0;
    for (int i = 0; i < k.pending(); i++) {
      fixtures.add(pod(job, "pod-" + n++, "Pending", false, -1));
    }
    for (int i = 0; i < k.active(); i++) {
      fixtures.add(pod(job, "pod-" + n++, "Running", i < k.ready(), -1));
    }
    for (int i = 0; i < k.succeeded(); i++) {
      fixtures.add(pod(job, "pod-" + n++, "Succeeded", false, -1));
    }
    for (int i = 0; i < k.failed(); i++) {
      fixtures.add(pod(job, "pod-" + n++, "Failed", false, -1));
    }
    for (String ip : k.indexed()) {
      String[] parts = ip.split(":");
      fixtures.add(pod(job, "pod-" + n++, parts[1], false, Integer.parseInt(parts[0])));
    }
    clock.set(clock.instant().plus(Duration.ofHours(1)));
    controllers = ControllerManager.builder(api).clock(clock).controllers("job").start();
    assertThat(controllers.awaitIdle(IDLE)).as("idle").isTrue();

    List<MapValue> pods = pods().list();
    List<MapValue> created = pods.stream()
        .filter(p -> !fixtures.contains(Meta.metaString(p, "name"))).toList();
    long deleted = fixtures.stream().filter(f -> pods.stream()
        .noneMatch(p -> Meta.metaString(p, "name").equals(f)
            && !Nested.has(p, "metadata", "deletionTimestamp"))).count();
    assertThat(created).as("creations").hasSize(k.expectedCreations());
    assertThat(deleted).as("deletions").isEqualTo(k.expectedDeletions());
    MapValue st = Nested.map(jobs().get("foobar"), "status");
    assertThat(Nested.integer(st, "active")).as("active").isEqualTo(k.expectedActive());
    assertThat(Nested.integer(st, "succeeded")).as("succeeded").isEqualTo(k.expectedSucceeded());
    assertThat(Nested.integer(st, "failed")).as("failed").isEqualTo(k.expectedFailed());
    assertThat(Nested.integer(st, "ready")).as("ready").isEqualTo(k.expectedReady());
    assertThat(Nested.list(st, "conditions").stream().map(c -> Nested.str(c, "type")).toList())
        .as("conditions").isEqualTo(k.expectedConditions());
    for (var c : Nested.list(st, "conditions")) {
      assertThat(Nested.str(c, "reason")).as("reason").isEqualTo(k.expectedReason());
    }
    assertThat(Nested.str(st, "completedIndexes")).as("completedIndexes")
        .isEqualTo(k.expectedCompletedIndexes());
    if (!k.expectedCreatedIndexes().isEmpty()) {
      Set<Integer> idx = new TreeSet<>();
      for (MapValue p : created) {
        idx.add(Integer.parseInt(Meta.annotations(p)
            .get("batch.kubernetes.io/job-completion-index")));
      }
      assertThat(idx).as("created indexes").isEqualTo(k.expectedCreatedIndexes());
    }
    // every counted Pod lost its finalizer
    for (MapValue p : pods) {
      String phase = Nested.str(p, "status", "phase");
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        assertThat(Meta.finalizers(p)).as("finalizers of %s", Meta.metaString(p, "name"))
            .isEmpty();
      }
    }
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private ResourceClient jobs() {
    return api.resources(JOBS).namespace("ns");
  }

  /** A Pod the Job controls, with the tracking finalizer, in {@code phase}. */
  private String pod(MapValue job, String name, String phase, boolean ready, int index) {
    String uid = Meta.metaString(job, "uid");
    String ix = index < 0 ? "" : ",\"batch.kubernetes.io/job-completion-index\":\"" + index
        + "\"";
    MapValue created = pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"batch.kubernetes.io/"
        + "controller-uid\":\"" + uid + "\",\"batch.kubernetes.io/job-name\":\"foobar\","
        + "\"controller-uid\":\"" + uid + "\",\"job-name\":\"foobar\"" + ix + "},"
        + "\"annotations\":{\"x\":\"y\"" + ix + "},"
        + "\"finalizers\":[\"batch.kubernetes.io/job-tracking\"],\"ownerReferences\":[{"
        + "\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"name\":\"foobar\",\"uid\":\"" + uid
        + "\",\"controller\":true,\"blockOwnerDeletion\":true}]},\"spec\":{\"restartPolicy\":"
        + "\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"foo/bar\"}]}}"));
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\"" + (ready
        ? ",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"lastTransitionTime\":\""
            + Meta.formatTime(clock.instant()) + "\"}]" : "") + "}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(created.with("status", status)).build()).orThrow();
    return name;
  }
}
