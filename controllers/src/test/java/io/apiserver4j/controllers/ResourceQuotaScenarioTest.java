/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers;

import static io.apiserver4j.controllers.EndpointsScenarioTest.PODS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.apiserver.UpdateOptions;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import io.apiserver4j.core.errors.StatusException;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The ResourceQuota admission plugin with the resourcequota controller, through the public API:
 * the controller fills {@code status.hard} and {@code status.used}, admission charges each
 * Pod and refuses the one over the limit with kube's message (plugin/pkg/admission/resourcequota
 * controller.go), and the controller gives usage back when a Pod is deleted or finishes
 * (resource_quota_controller.go's replenishment) and in its five-minute resync on the server
 * clock. {@code status} is what {@code kubectl describe quota} prints: canonical quantities.
 */
class ResourceQuotaScenarioTest {
  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server(b -> b.disableAdmissionPlugins("ServiceAccount")
        .enableAdmissionPlugins("ResourceQuota"), "ns");
    controllers = scenario.start("resourcequota");
  }

  private ResourceClient quotas() {
    return api.resources("v1", "resourcequotas").namespace("ns");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private void pod(String name, String cpu) {
    pods().create(Yaml.read("{apiVersion: v1, kind: Pod, metadata: {name: " + name + "},"
        + " spec: {containers: [{name: c, image: x, resources: {requests: {cpu: " + cpu
        + "}}}]}}"));
  }

  private MapValue status() {
    return Nested.map(quotas().get("q"), "status");
  }

  @Test
  void podsUntilTheQuotaRefusesThenADeletionMakesRoom() {
    quotas().create(Yaml.read("{apiVersion: v1, kind: ResourceQuota, metadata: {name: q},"
        + " spec: {hard: {pods: '2', requests.cpu: '1'}}}"));
    scenario.idle();
    assertThat(status()).isEqualTo(Yaml.read(
        "{hard: {pods: '2', requests.cpu: '1'}, used: {pods: '0', requests.cpu: '0'}}"));

    pod("p1", "500m");
    assertThat(status()).isEqualTo(Yaml.read(
        "{hard: {pods: '2', requests.cpu: '1'}, used: {pods: '1', requests.cpu: 500m}}"));
    pod("p2", "500m");
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read(
        "{pods: '2', requests.cpu: '1'}"));
    assertThatThrownBy(() -> pod("p3", "500m")).isInstanceOfSatisfying(StatusException.class,
        e -> {
          assertThat(e.status().code()).isEqualTo(403);
          assertThat(e.status().reason().wireName()).isEqualTo("Forbidden");
          assertThat(e.status().message()).isEqualTo("pods \"p3\" is forbidden: exceeded quota:"
              + " q, requested: pods=1,requests.cpu=500m, used: pods=2,requests.cpu=1, limited:"
              + " pods=2,requests.cpu=1");
        });

    pods().delete("p1");
    scenario.idle();
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read(
        "{pods: '1', requests.cpu: 500m}"));
    pod("p4", "500m");
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read(
        "{pods: '2', requests.cpu: '1'}"));
  }

  @Test
  void aPodThatFinishesNoLongerCountsButItsObjectCountStays() {
    quotas().create(Yaml.read("{apiVersion: v1, kind: ResourceQuota, metadata: {name: q},"
        + " spec: {hard: {pods: '2', count/pods: '5', requests.cpu: '1'}}}"));
    scenario.idle();
    pod("p1", "500m");
    pod("p2", "250m");
    MapValue p1 = pods().get("p1");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name("p1")
        .subresource("status").options(UpdateOptions.defaults())
        .body(p1.with("status", Yaml.read("{phase: Succeeded}"))).build()).orThrow();
    scenario.idle();
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read(
        "{count/pods: '2', pods: '1', requests.cpu: 250m}"));
  }

  @Test
  void specChangesAndTheResyncKeepTheStatusTrue() {
    quotas().create(Yaml.read("{apiVersion: v1, kind: ResourceQuota, metadata: {name: q},"
        + " spec: {hard: {configmaps: '10'}}}"));
    scenario.idle();
    api.resources("v1", "configmaps").namespace("ns").create(Yaml.read(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: a}}"));
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read("{configmaps: '1'}"));

    MapValue q = quotas().get("q");
    quotas().update(Nested.set(q, Yaml.read("{configmaps: '10', secrets: '3'}"), "spec",
        "hard"));
    scenario.idle();
    assertThat(status()).isEqualTo(Yaml.read("{hard: {configmaps: '10', secrets: '3'},"
        + " used: {configmaps: '1', secrets: '0'}}"));

    // a status someone else wrote wrong stays until the full resync recounts it
    q = quotas().get("q");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE,
        new io.apiserver4j.core.GroupVersionResource("", "v1", "resourcequotas"))
        .namespace("ns").name("q").subresource("status").options(UpdateOptions.defaults())
        .body(Nested.set(q, Value.of("7"), "status", "used", "configmaps")).build()).orThrow();
    scenario.idle();
    assertThat(Nested.str(status(), "used", "configmaps")).isEqualTo("7");
    clock.set(clock.instant().plus(Duration.ofMinutes(5)));
    scenario.idle();
    assertThat(Nested.map(status(), "used")).isEqualTo(Yaml.read(
        "{configmaps: '1', secrets: '0'}"));
  }
}
