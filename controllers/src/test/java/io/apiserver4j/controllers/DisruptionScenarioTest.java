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
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusException;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The disruption controller through the public API, with the server's {@code pods/eviction}
 * honouring the status it writes. Expected status and messages follow kube's disruption.go,
 * its disruption_test.go (TestNoSelector, TestUnavailable, TestIntegerMaxUnavailable,
 * TestReplicaSet, TestBasicFinderFunctions, TestUpdateDisruptedPods) and the eviction
 * subresource's 429 ({@code pkg/registry/core/pod/storage/eviction.go}).
 */
class DisruptionScenarioTest {
  @RegisterExtension final Scenario scenario = new Scenario();
  private final SettableClock clock = scenario.clock();
  private ApiServer api;
  private ControllerManager controllers;

  @BeforeEach
  void start() {
    api = scenario.server("ns");
    controllers = scenario.start("disruption,replicaset");
  }

  private ResourceClient pdbs() {
    return api.resources("policy/v1", "poddisruptionbudgets").namespace("ns");
  }

  private ResourceClient pods() {
    return api.resources(PODS).namespace("ns");
  }

  private void pdb(String spec) {
    pdbs().create(Json.read("{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\","
        + "\"metadata\":{\"name\":\"web\"},\"spec\":{\"selector\":{\"matchLabels\":{\"app\":"
        + "\"web\"}}," + spec + "}}"));
  }

  private MapValue status() {
    return Nested.map(pdbs().get("web"), "status");
  }

  /** A bare Pod labelled app=web. */
  private void pod(String name) {
    pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\","
        + "\"image\":\"x\"}]}}"));
  }

  /** The Pod's status as a kubelet would write it: Running, Ready as given. */
  private void running(String name, boolean ready) {
    MapValue pod = pods().get(name);
    MapValue status = (MapValue) Json.read("{\"phase\":\"Running\",\"podIP\":\"10.0.0.1\","
        + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False")
        + "\",\"lastTransitionTime\":\"" + Meta.formatTime(clock.instant()) + "\"}]}");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE, PODS).namespace("ns").name(name)
        .subresource("status").options(UpdateOptions.defaults())
        .body(pod.with("status", status)).build()).orThrow();
  }

  private MapValue evict(String name) {
    return api.handle(ApiRequest.builder(ApiRequest.Verb.CREATE, PODS).namespace("ns")
        .name(name).subresource("eviction").body(Json.read("{\"apiVersion\":\"policy/v1\","
            + "\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + name + "\",\"namespace\":"
            + "\"ns\"}}")).build()).orThrow();
  }

  private static Value condition(MapValue status) {
    return Nested.list(status, "conditions").stream()
        .filter(c -> Nested.str(c, "type").equals("DisruptionAllowed")).findFirst()
        .orElseThrow();
  }

  @Test
  void minAvailableTwoOfThreeAllowsOneEvictionAndRefusesTheNextWithKubes429() {
    for (String n : List.of("a", "b", "c")) {
      pod(n);
      running(n, true);
    }
    pdb("\"minAvailable\":2");
    scenario.idle();
    MapValue status = status();
    assertThat(Nested.integer(status, "expectedPods")).isEqualTo(3);
    assertThat(Nested.integer(status, "currentHealthy")).isEqualTo(3);
    assertThat(Nested.integer(status, "desiredHealthy")).isEqualTo(2);
    assertThat(Nested.integer(status, "disruptionsAllowed")).isEqualTo(1);
    assertThat(Nested.integer(status, "observedGeneration")).isEqualTo(1);
    assertThat(condition(status)).isEqualTo(Json.read("{\"type\":\"DisruptionAllowed\","
        + "\"status\":\"True\",\"observedGeneration\":1,\"lastTransitionTime\":"
        + "\"2026-01-01T00:00:00Z\",\"reason\":\"SufficientPods\",\"message\":\"\"}"));

    assertThat(Nested.str(evict("a"), "status")).isEqualTo("Success");
    scenario.idle();
    assertThat(pods().find("a")).isEmpty();
    status = status();
    assertThat(Nested.integer(status, "currentHealthy")).isEqualTo(2);
    assertThat(Nested.integer(status, "expectedPods")).isEqualTo(2);
    assertThat(Nested.integer(status, "disruptionsAllowed")).isZero();
    // the evicted Pod is gone, so the controller drops it from disruptedPods
    assertThat(Nested.has(status, "disruptedPods")).isFalse();
    assertThat(Nested.str(condition(status), "reason")).isEqualTo("InsufficientPods");

    assertThatThrownBy(() -> evict("b")).isInstanceOfSatisfying(StatusException.class, e -> {
      assertThat(e.status().code()).isEqualTo(429);
      assertThat(e.status().reason().wireName()).isEqualTo("TooManyRequests");
      assertThat(e.getMessage()).contains(
          "Cannot evict pod as it would violate the pod's disruption budget.");
      assertThat(e.status().causes()).anySatisfy(c -> {
        assertThat(c.type()).isEqualTo("DisruptionBudget");
        assertThat(c.message()).isEqualTo(
            "The disruption budget web needs 2 healthy pods and has 2 currently");
      });
    });
    assertThat(pods().find("b")).isPresent();
  }

  @Test
  void disruptedPodNotDeletedIsCountedAgainAfterTheTimeoutOnTheServerClock() {
    for (String n : List.of("a", "b", "c")) {
      pod(n);
      running(n, true);
    }
    pdb("\"maxUnavailable\":1");
    scenario.idle();
    // an eviction recorded "a" but the Pod stayed (as a Pod a finalizer holds would)
    MapValue pdb = pdbs().get("web");
    api.handle(ApiRequest.builder(ApiRequest.Verb.UPDATE,
            new io.apiserver4j.core.GroupVersionResource("policy", "v1", "poddisruptionbudgets"))
        .namespace("ns").name("web").subresource("status").options(UpdateOptions.defaults())
        .body(pdb.with("status", Nested.map(pdb, "status").with("disruptionsAllowed",
            Value.of(0L)).with("disruptedPods", Json.read("{\"a\":\""
            + Meta.formatTime(clock.instant()) + "\"}")))).build()).orThrow();
    scenario.idle();
    MapValue status = status();
    // maxUnavailable without controllers: bare Pods count for nothing (kube's expectedScale)
    assertThat(Nested.integer(status, "expectedPods")).isZero();
    assertThat(Nested.integer(status, "currentHealthy")).isEqualTo(2);
    assertThat(Nested.map(status, "disruptedPods").containsKey("a")).isTrue();
    clock.set(clock.instant().plusSeconds(121));
    scenario.idle();
    status = status();
    assertThat(Nested.has(status, "disruptedPods")).isFalse();
    assertThat(Nested.integer(status, "currentHealthy")).isEqualTo(3);
  }

  @Test
  void percentageIsTakenAgainstTheReplicaSetsScale() {
    api.resources("apps/v1", "replicasets").namespace("ns").create(Json.read(
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"replicas\":4,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":"
            + "{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}}}"));
    scenario.idle();
    List<MapValue> created = pods().list();
    assertThat(created).hasSize(4);
    for (MapValue p : created.subList(0, 3)) {
      running(Meta.metaString(p, "name"), true);
    }
    pdb("\"minAvailable\":\"50%\"");
    scenario.idle();
    MapValue status = status();
    // kube's TestReplicaSet shape: expected from the scale, 50% of 4 = 2, 3 ready
    assertThat(Nested.integer(status, "expectedPods")).isEqualTo(4);
    assertThat(Nested.integer(status, "desiredHealthy")).isEqualTo(2);
    assertThat(Nested.integer(status, "currentHealthy")).isEqualTo(3);
    assertThat(Nested.integer(status, "disruptionsAllowed")).isEqualTo(1);

    // maxUnavailable 30% of 4 rounds up to 2
    pdbs().patch("web", PatchType.MERGE_PATCH,
        "{\"spec\":{\"minAvailable\":null,\"maxUnavailable\":\"30%\"}}");
    scenario.idle();
    status = status();
    assertThat(Nested.integer(status, "desiredHealthy")).isEqualTo(2);
    assertThat(Nested.integer(status, "observedGeneration")).isEqualTo(2);
  }

  @Test
  void podWhoseControllerIsMissingFailsSafe() {
    pods().create(Json.read("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":"
        + "\"orphan\",\"labels\":{\"app\":\"web\"},\"ownerReferences\":[{\"apiVersion\":"
        + "\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"gone\",\"uid\":\"nope\","
        + "\"controller\":true}]},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"x\"}]}}"));
    running("orphan", true);
    pdb("\"minAvailable\":\"50%\"");
    scenario.idle();
    MapValue status = status();
    assertThat(Nested.integer(status, "disruptionsAllowed")).isZero();
    Value c = condition(status);
    assertThat(Nested.str(c, "status")).isEqualTo("False");
    assertThat(Nested.str(c, "reason")).isEqualTo("SyncFailed");
    assertThat(Nested.str(c, "message")).isEqualTo("found no controllers for pod \"orphan\"");
  }

  private List<MapValue> events(String reason) {
    return api.resources("v1", "events").namespace("ns").list().stream()
        .filter(e -> Nested.str(e, "reason").equals(reason)).toList();
  }

  @Test
  void aBudgetWithoutPodsAndOneOverBarePodsAreKubesEvents() {
    pdb("\"maxUnavailable\":1");
    scenario.idle();
    // disruption.go trySync, from "controllermanager" as kube's disruption controller names it
    List<MapValue> noPods = events("NoPods");
    assertThat(noPods).extracting(e -> Nested.str(e, "message"))
        .containsExactly("No matching pods found");
    assertThat(Nested.str(noPods.get(0), "type")).isEqualTo("Normal");
    assertThat(Nested.str(noPods.get(0), "source", "component")).isEqualTo("controllermanager");
    assertThat(Nested.str(noPods.get(0), "involvedObject", "kind"))
        .isEqualTo("PodDisruptionBudget");
    assertThat(Nested.str(noPods.get(0), "involvedObject", "apiVersion")).isEqualTo("policy/v1");
    pod("a");
    scenario.idle();
    // a Pod without a controller under maxUnavailable: Go's %v of the *LabelSelector
    assertThat(events("UnmanagedPods")).extracting(e -> Nested.str(e, "message"))
        .containsExactly("Pods selected by this PodDisruptionBudget (selector: "
            + "&LabelSelector{MatchLabels:map[string]string{app: web,},"
            + "MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. "
            + "As a result, the status of the PDB cannot be calculated correctly, which may "
            + "result in undefined behavior. To account for these pods please set "
            + "\".spec.minAvailable\" field of the PDB to an integer value.");
    assertThat(Nested.str(events("UnmanagedPods").get(0), "type")).isEqualTo("Warning");
  }

  @Test
  void theSameEventAgainIsCountedOnTheFirstOne() {
    pdb("\"maxUnavailable\":1");
    scenario.idle();
    MapValue first = events("NoPods").get(0);
    String created = Nested.str(first, "firstTimestamp");
    long count = Nested.integer(first, "count");
    clock.set(clock.instant().plusSeconds(30));
    pdbs().patch("web", io.apiserver4j.apimachinery.patch.PatchType.MERGE_PATCH,
        "{\"metadata\":{\"labels\":{\"poke\":\"1\"}}}");
    scenario.idle();
    // client-go's EventCorrelator: a patch of count, lastTimestamp and message on the first one
    List<MapValue> noPods = events("NoPods");
    assertThat(noPods).hasSize(1);
    MapValue again = noPods.get(0);
    assertThat(Meta.metaString(again, "name")).isEqualTo(Meta.metaString(first, "name"));
    assertThat(Nested.integer(again, "count")).isGreaterThan(count);
    assertThat(Nested.str(again, "firstTimestamp")).isEqualTo(created);
    assertThat(Nested.str(again, "lastTimestamp")).isEqualTo(Meta.formatTime(clock.instant()));
  }
}
