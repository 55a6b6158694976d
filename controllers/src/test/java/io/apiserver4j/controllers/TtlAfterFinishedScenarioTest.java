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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ttl-after-finished controller with the job controller and the garbage collector: a Job
 * whose Pods the test finishes through {@code pods/status} completes, and is deleted in the
 * foreground with its Pods once {@code ttlSecondsAfterFinished} of the server clock has passed
 * since its Complete condition (kube's pkg/controller/ttlafterfinished).
 */
class TtlAfterFinishedScenarioTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource JOBS =
      new GroupVersionResource("batch", "v1", "jobs");

  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("job,ttl-after-finished,garbagecollector");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private ResourceClient jobs() {
    return api.resources(JOBS).namespace("ns");
  }

  @Test
  void finishedJobIsDeletedWithItsPodsWhenTheTtlPasses() {
    jobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\",\"metadata\":"
        + "{\"name\":\"short\"},\"spec\":{\"ttlSecondsAfterFinished\":100,\"template\":{\"spec\":"
        + "{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}"));
    scenario.idle();
    MapValue pod = pods().list().get(0);
    clock.set(clock.instant().plusSeconds(5));
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns")
        .name(Meta.metaString(pod, "name")).subresource("status")
        .options(UpdateOptions.defaults())
        .body(pod.with("status", Json.read("{\"phase\":\"Succeeded\"}"))).build()).orThrow();
    scenario.idle();
    MapValue job = jobs().get("short");
    assertThat(Nested.list(job, "status", "conditions").stream()
        .map(c -> Nested.str(c, "type")).toList()).contains("Complete");
    assertThat(Nested.str(job, "status", "completionTime")).isEqualTo("2026-01-01T00:00:05Z");
    clock.set(clock.instant().plusSeconds(99));
    scenario.idle();
    assertThat(jobs().find("short")).isPresent();
    assertThat(pods().list()).hasSize(1);
    clock.set(clock.instant().plusSeconds(1));
    scenario.idle();
    assertThat(jobs().find("short")).isEmpty();
    assertThat(pods().list()).isEmpty();
  }

  @Test
  void jobWithoutTtlStays() {
    MapValue job = jobs().create(Json.read("{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
        + "\"metadata\":{\"name\":\"keep\"},\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":"
        + "\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}"));
    scenario.idle();
    MapValue pod = pods().list().get(0);
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns")
        .name(Meta.metaString(pod, "name")).subresource("status")
        .options(UpdateOptions.defaults())
        .body(pod.with("status", Json.read("{\"phase\":\"Succeeded\"}"))).build()).orThrow();
    scenario.idle();
    clock.set(clock.instant().plus(Duration.ofDays(1)));
    scenario.idle();
    assertThat(jobs().find("keep")).isPresent();
    assertThat(Meta.metaString(jobs().get("keep"), "uid")).isEqualTo(Meta.metaString(job, "uid"));
  }
}
