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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cronjob controller through the public API on a test clock; Jobs are finished by the test
 * through {@code jobs/status} as the job controller would. Names, annotations, status fields
 * and policies are kube's (pkg/controller/cronjob, cronjob_controllerv2.go): a CronJob is looked
 * at again 100 ms after each schedule time, so the clock is moved a little past it.
 */
class CronJobScenarioTest {
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");
  private static final GroupVersionResource CRONJOBS =
      new GroupVersionResource("batch", "v1", "cronjobs");
  /** 2026-01-01T00:00:00Z is 1767225600 s, 29453760 minutes after the epoch. */
  private static final long START_MINUTE = 29453760;

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("cronjob");
  }

  private void advance(Duration d) {
    clock.set(clock.instant().plus(d));
    scenario.idle();
  }

  private ResourceClient jobs() {
    return api.resources(JOBS).namespace("ns");
  }

  private ResourceClient cronJobs() {
    return api.resources(CRONJOBS).namespace("ns");
  }

  private MapValue createCronJob(String name, String schedule, String extra) {
    return cronJobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\","
        + "\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{\"schedule\":\"" + schedule + "\""
        + extra + ",\"jobTemplate\":{\"metadata\":{\"labels\":{\"team\":\"a\"},\"annotations\":"
        + "{\"note\":\"x\"}},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"Never\","
        + "\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}}}"));
  }

  private List<String> jobNames() {
    return jobs().list().stream().filter(j -> !Nested.has(j, "metadata", "deletionTimestamp"))
        .map(j -> Meta.metaString(j, "name")).sorted().toList();
  }

  private MapValue status(String cronJob) {
    return Nested.map(cronJobs().get(cronJob), "status");
  }

  /** Completes the Job as the job controller would. */
  private void complete(String job) {
    MapValue current = jobs().get(job);
    String t = Meta.formatTime(clock.instant());
    MapValue status = (MapValue) Json.read("{\"startTime\":\"" + t + "\",\"completionTime\":\""
        + t + "\",\"succeeded\":1,\"conditions\":[{\"type\":\"SuccessCriteriaMet\",\"status\":"
        + "\"True\",\"lastProbeTime\":\"" + t + "\",\"lastTransitionTime\":\"" + t + "\","
        + "\"reason\":\"CompletionsReached\",\"message\":\"Reached expected number of succeeded "
        + "pods\"},{\"type\":\"Complete\",\"status\":\"True\",\"lastProbeTime\":\"" + t + "\","
        + "\"lastTransitionTime\":\"" + t + "\",\"reason\":\"CompletionsReached\",\"message\":"
        + "\"Reached expected number of succeeded pods\"}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, JOBS).namespace("ns").name(job)
        .subresource("status").options(UpdateOptions.defaults())
        .body(current.with("status", status)).build()).orThrow();
  }

  @Test
  void everyMinuteCreatesAJobWhenTheClockPassesTheMinute() {
    MapValue cj = createCronJob("every", "*/1 * * * *", "");
    scenario.idle();
    assertThat(jobNames()).isEmpty();
    advance(Duration.ofSeconds(59));
    assertThat(jobNames()).isEmpty();
    advance(Duration.ofSeconds(2));
    String name = "every-" + (START_MINUTE + 1);
    assertThat(jobNames()).containsExactly(name);
    MapValue job = jobs().get(name);
    assertThat(Meta.annotations(job)).containsEntry(
        "batch.kubernetes.io/cronjob-scheduled-timestamp", "2026-01-01T00:01:00Z")
        .containsEntry("note", "x");
    assertThat(Meta.labels(job)).containsEntry("team", "a");
    assertThat(Nested.list(job, "metadata", "ownerReferences")).containsExactly(Json.read(
        "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\",\"name\":\"every\",\"uid\":\""
            + Meta.metaString(cj, "uid") + "\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}"));
    MapValue st = status("every");
    assertThat(Nested.str(st, "lastScheduleTime")).isEqualTo("2026-01-01T00:01:00Z");
    assertThat(Nested.list(st, "active")).containsExactly(Json.read("{\"kind\":\"Job\","
        + "\"namespace\":\"ns\",\"name\":\"" + name + "\",\"uid\":\"" + Meta.metaString(job, "uid")
        + "\",\"apiVersion\":\"batch/v1\",\"resourceVersion\":\""
        + Meta.metaString(job, "resourceVersion") + "\"}"));
    // Allow (the default): the next minute starts another while the first runs
    advance(Duration.ofMinutes(1));
    assertThat(jobNames()).containsExactly(name, "every-" + (START_MINUTE + 2));
    assertThat(Nested.list(status("every"), "active")).hasSize(2);
  }

  @Test
  void forbidSkipsWhileAJobRunsAndCompletionIsRecorded() {
    createCronJob("forbid", "*/1 * * * *", ",\"concurrencyPolicy\":\"Forbid\"");
    advance(Duration.ofSeconds(61));
    String first = "forbid-" + (START_MINUTE + 1);
    assertThat(jobNames()).containsExactly(first);
    advance(Duration.ofMinutes(1));
    assertThat(jobNames()).containsExactly(first);
    complete(first);
    scenario.idle();
    // the 00:02 run was skipped, not recorded: with no starting deadline kube starts it now
    String second = "forbid-" + (START_MINUTE + 2);
    assertThat(jobNames()).containsExactly(first, second);
    MapValue st = status("forbid");
    assertThat(Nested.list(st, "active")).hasSize(1);
    assertThat(Nested.str(Nested.list(st, "active").get(0), "name")).isEqualTo(second);
    assertThat(Nested.str(st, "lastScheduleTime")).isEqualTo("2026-01-01T00:02:00Z");
    assertThat(Nested.str(st, "lastSuccessfulTime")).isEqualTo("2026-01-01T00:02:01Z");
    advance(Duration.ofMinutes(1));
    assertThat(jobNames()).containsExactly(first, second);
  }

  @Test
  void replaceDeletesTheRunningJob() {
    createCronJob("replace", "*/1 * * * *", ",\"concurrencyPolicy\":\"Replace\"");
    advance(Duration.ofSeconds(61));
    advance(Duration.ofMinutes(1));
    assertThat(jobNames()).containsExactly("replace-" + (START_MINUTE + 2));
    assertThat(Nested.list(status("replace"), "active")).hasSize(1);
  }

  @Test
  void historyLimitDeletesTheOldestFinishedJobs() {
    createCronJob("hist", "*/1 * * * *", ",\"successfulJobsHistoryLimit\":1");
    advance(Duration.ofSeconds(61));
    complete("hist-" + (START_MINUTE + 1));
    advance(Duration.ofMinutes(1));
    complete("hist-" + (START_MINUTE + 2));
    scenario.idle();
    assertThat(jobNames()).containsExactly("hist-" + (START_MINUTE + 2));
  }

  @Test
  void aScheduleTimeMissedBeyondTheStartingDeadlineIsSkipped() {
    createCronJob("late", "0 * * * *", ",\"startingDeadlineSeconds\":30");
    scenario.idle();
    // nothing looks at the CronJob between 00:00 and 01:01: 01:00 is past its deadline then
    clock.set(clock.instant().plus(Duration.ofMinutes(61)));
    cronJobs().patch("late", io.apiserver4j.apimachinery.patch.PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"poke\":\"1\"}}}");
    scenario.idle();
    assertThat(jobNames()).isEmpty();
    assertThat(Nested.has(status("late"), "lastScheduleTime")).isFalse();
  }

  @Test
  void suspendedCronJobCreatesNothing() {
    createCronJob("sus", "*/1 * * * *", ",\"suspend\":true");
    advance(Duration.ofMinutes(3));
    assertThat(jobNames()).isEmpty();
  }

  @Test
  void timeZoneShiftsTheSchedule() {
    // 06:00 in New York is 11:00 UTC in January
    createCronJob("tz", "0 6 * * *", ",\"timeZone\":\"America/New_York\"");
    advance(Duration.ofHours(10).plusMinutes(59));
    assertThat(jobNames()).isEmpty();
    advance(Duration.ofMinutes(1).plusSeconds(1));
    String name = "tz-" + (START_MINUTE + 11 * 60);
    assertThat(jobNames()).containsExactly(name);
    assertThat(Meta.annotations(jobs().get(name))).containsEntry(
        "batch.kubernetes.io/cronjob-scheduled-timestamp", "2026-01-01T06:00:00-05:00");
  }

  private List<MapValue> events(String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals(reason)).toList();
  }

  private List<String> messages(String reason) {
    return events(reason).stream().map(e -> Nested.str(e, "message")).toList();
  }

  @Test
  void forbidRecordsKubesEvents() {
    MapValue cj = createCronJob("forbid", "*/1 * * * *", ",\"concurrencyPolicy\":\"Forbid\"");
    advance(Duration.ofSeconds(61));
    String first = "forbid-" + (START_MINUTE + 1);
    // cronjob_controllerv2.go: "Created job %v", Normal, from the cronjob-controller
    assertThat(messages("SuccessfulCreate")).containsExactly("Created job " + first);
    MapValue created = events("SuccessfulCreate").get(0);
    assertThat(Nested.str(created, "type")).isEqualTo("Normal");
    assertThat(Nested.str(created, "source", "component")).isEqualTo("cronjob-controller");
    assertThat(Nested.str(created, "reportingComponent")).isEqualTo("cronjob-controller");
    assertThat(Nested.str(created, "involvedObject", "kind")).isEqualTo("CronJob");
    assertThat(Nested.str(created, "involvedObject", "apiVersion")).isEqualTo("batch/v1");
    assertThat(Nested.str(created, "involvedObject", "name")).isEqualTo("forbid");
    assertThat(Nested.str(created, "involvedObject", "uid")).isEqualTo(Meta.metaString(cj, "uid"));
    assertThat(Nested.integer(created, "count")).isEqualTo(1);
    advance(Duration.ofMinutes(1));
    assertThat(messages("JobAlreadyActive")).containsExactly("Not starting job because prior "
        + "execution is running and concurrency policy is Forbid");
    assertThat(Nested.str(events("JobAlreadyActive").get(0), "type")).isEqualTo("Normal");
    complete(first);
    scenario.idle();
    assertThat(messages("SawCompletedJob"))
        .containsExactly("Saw completed job: " + first + ", condition: Complete");
    assertThat(messages("SuccessfulCreate")).containsExactlyInAnyOrder("Created job " + first,
        "Created job forbid-" + (START_MINUTE + 2));
  }

  @Test
  void replaceRecordsTheDeletedJob() {
    createCronJob("replace", "*/1 * * * *", ",\"concurrencyPolicy\":\"Replace\"");
    advance(Duration.ofSeconds(61));
    advance(Duration.ofMinutes(1));
    assertThat(messages("SuccessfulDelete"))
        .containsExactly("Deleted job replace-" + (START_MINUTE + 1));
  }
}
