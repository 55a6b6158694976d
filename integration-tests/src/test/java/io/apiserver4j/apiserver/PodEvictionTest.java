/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code pods/eviction} as kube-apiserver's EvictionREST (pkg/registry/core/pod/storage/
 * eviction.go): the PodDisruptionBudget selecting a running pod must allow a disruption, which
 * the eviction takes; its refusals are kube's 429 and 500 texts.
 */
class PodEvictionTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource PDBS =
      new GroupVersionResource("policy", "v1", "poddisruptionbudgets");
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
  private final ApiServer server = ApiServer.builder().clock(new TestClock(NOW)).build();

  @AfterEach
  void close() {
    server.close();
  }

  private ApiResponse call(Verb verb, GroupVersionResource gvr, String name, String sub,
      String body) {
    ApiRequest.Builder b = ApiRequest.builder(verb, gvr).namespace("default");
    if (!name.isEmpty()) {
      b.name(name);
    }
    if (!sub.isEmpty()) {
      b.subresource(sub);
    }
    if (body != null) {
      b.body(Json.read(body));
    }
    return server.handle(b.build());
  }

  private MapValue get(GroupVersionResource gvr, String name) {
    return call(Verb.GET, gvr, name, "", null).orThrow();
  }

  /** A pod in {@code phase}, ready or not, optionally already on a node. */
  private void pod(String name, String phase, boolean ready, String node) {
    call(Verb.CREATE, PODS, "", "", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
        + "\"name\":\"" + name + "\",\"labels\":{\"app\":\"web\"}},\"spec\":{"
        + (node.isEmpty() ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}").orThrow();
    MapValue pod = get(PODS, name);
    MapValue status = (MapValue) Json.read("{\"phase\":\"" + phase + "\",\"conditions\":[{"
        + "\"type\":\"Ready\",\"status\":\"" + (ready ? "True" : "False") + "\"}]}");
    call(Verb.UPDATE, PODS, name, "status", Json.write(pod.with("status", status))).orThrow();
  }

  private void budget(String name, String selector, String status, String extraSpec) {
    call(Verb.CREATE, PDBS, "", "", "{\"apiVersion\":\"policy/v1\",\"kind\":"
        + "\"PodDisruptionBudget\",\"metadata\":{\"name\":\"" + name + "\"},\"spec\":{"
        + extraSpec + "\"minAvailable\":1,\"selector\":" + selector + "}}").orThrow();
    MapValue pdb = get(PDBS, name);
    call(Verb.UPDATE, PDBS, name, "status", Json.write(pdb.with("status", Json.read(status))))
        .orThrow();
  }

  private static String status(long generation, long allowed, long current, long desired) {
    return "{\"observedGeneration\":" + generation + ",\"disruptionsAllowed\":" + allowed
        + ",\"currentHealthy\":" + current + ",\"desiredHealthy\":" + desired
        + ",\"expectedPods\":3}";
  }

  private ApiResponse evict(String name, String deleteOptions) {
    return call(Verb.CREATE, PODS, name, "eviction", "{\"apiVersion\":\"policy/v1\",\"kind\":"
        + "\"Eviction\",\"metadata\":{\"name\":\"" + name + "\"}"
        + (deleteOptions == null ? "" : ",\"deleteOptions\":" + deleteOptions) + "}");
  }

  @Test
  void aRunningPodWithoutBudgetIsDeletedAndTheAnswerIsASuccessStatus() {
    pod("p", "Running", true, "");

    ApiResponse r = evict("p", null);

    assertThat(r.code()).isEqualTo(201);
    assertThat(Json.write(r.body())).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Success\",\"code\":201}");
    assertThat(call(Verb.GET, PODS, "p", "", null).code()).isEqualTo(404);
  }

  @Test
  void aBudgetAllowingADisruptionIsDecrementedAndRecordsThePod() {
    pod("p", "Running", true, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 1, 3, 2), "");

    ApiResponse r = evict("p", null);

    assertThat(r.code()).isEqualTo(201);
    MapValue pdb = get(PDBS, "pdb");
    assertThat(Nested.getOrNull(pdb, "status", "disruptionsAllowed")).isEqualTo(Value.of(0L));
    assertThat(Nested.getOrNull(pdb, "status", "disruptedPods"))
        .isEqualTo(Json.read("{\"p\":\"2026-01-02T03:04:05Z\"}"));
    // pdbhelper.UpdateDisruptionAllowedCondition once no disruption is left
    MapValue condition = (MapValue) Nested.list(pdb, "status", "conditions").get(0);
    assertThat(Nested.str(condition, "type")).isEqualTo("DisruptionAllowed");
    assertThat(Nested.str(condition, "status")).isEqualTo("False");
    assertThat(Nested.str(condition, "reason")).isEqualTo("InsufficientPods");
    assertThat(Nested.getOrNull(condition, "observedGeneration")).isEqualTo(Value.of(1L));
    // written by kube-apiserver's loopback client
    assertThat(Json.write(Nested.getOrNull(pdb, "metadata", "managedFields")))
        .contains("\"manager\":\"kube-apiserver\",\"operation\":\"Update\"");
    assertThat(call(Verb.GET, PODS, "p", "", null).code()).isEqualTo(404);
  }

  @Test
  void aBudgetWithoutDisruptionsAllowedRefusesWith429AndTheBudgetCause() {
    pod("p", "Running", true, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 0, 2, 2), "");

    ApiResponse r = evict("p", null);

    assertThat(r.code()).isEqualTo(429);
    assertThat(Nested.str(r.body(), "reason")).isEqualTo("TooManyRequests");
    assertThat(Nested.str(r.body(), "message"))
        .isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
    assertThat(Json.write(Nested.getOrNull(r.body(), "details", "causes"))).isEqualTo(
        "[{\"reason\":\"DisruptionBudget\",\"message\":\"The disruption budget pdb needs 2"
            + " healthy pods and has 2 currently\"}]");
    assertThat(get(PODS, "p")).isNotNull();
    assertThat(Nested.getOrNull(get(PDBS, "pdb"), "status", "disruptedPods")).isNull();
  }

  @Test
  void aBudgetWhoseStatusIsBehindItsGenerationAsksToRetry() {
    pod("p", "Running", true, "");
    // kube's PDB strategy: generation 1 on create; the controller has not observed it yet
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(0, 5, 3, 2), "");

    ApiResponse r = evict("p", null);

    assertThat(r.code()).isEqualTo(429);
    assertThat(Nested.getOrNull(r.body(), "details", "retryAfterSeconds"))
        .isEqualTo(Value.of(10L));
    assertThat(Json.write(Nested.getOrNull(r.body(), "details", "causes"))).isEqualTo(
        "[{\"reason\":\"DisruptionBudget\",\"message\":\"The disruption budget pdb is still"
            + " being processed by the server.\"}]");
  }

  @Test
  void twoBudgetsSelectingThePodAreKubes500() {
    pod("p", "Running", true, "");
    budget("a", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 1, 3, 2), "");
    budget("b", "{}", status(1, 1, 3, 2), "");

    ApiResponse r = evict("p", null);

    assertThat(r.code()).isEqualTo(500);
    assertThat(Nested.str(r.body(), "status")).isEqualTo("Failure");
    assertThat(Nested.str(r.body(), "reason")).isEmpty();
    assertThat(Nested.str(r.body(), "message")).isEqualTo("This pod has more than one"
        + " PodDisruptionBudget, which the eviction subresource does not support.");
    assertThat(get(PODS, "p")).isNotNull();
  }

  @Test
  void aBudgetSelectingOtherPodsDoesNotCount() {
    pod("p", "Running", true, "");
    budget("other", "{\"matchLabels\":{\"app\":\"db\"}}", status(1, 0, 2, 2), "");

    assertThat(evict("p", null).code()).isEqualTo(201);
  }

  @Test
  void pendingAndTerminalPodsAreEvictedWhateverTheBudget() {
    pod("pending", "Pending", false, "");
    pod("done", "Succeeded", false, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 0, 2, 2), "");

    assertThat(evict("pending", null).code()).isEqualTo(201);
    assertThat(evict("done", null).code()).isEqualTo(201);
    assertThat(Nested.getOrNull(get(PDBS, "pdb"), "status", "disruptionsAllowed"))
        .isEqualTo(Value.of(0L));
  }

  @Test
  void unhealthyPodsFollowTheUnhealthyPodEvictionPolicy() {
    pod("p", "Running", false, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 0, 1, 2),
        "\"unhealthyPodEvictionPolicy\":\"AlwaysAllow\",");

    // AlwaysAllow: the unready pod goes and the budget is not decremented
    assertThat(evict("p", null).code()).isEqualTo(201);
    assertThat(Nested.getOrNull(get(PDBS, "pdb"), "status", "disruptedPods")).isNull();
  }

  @Test
  void unhealthyPodsUnderIfHealthyBudgetNeedAHealthyApplication() {
    pod("p", "Running", false, "");
    pod("q", "Running", false, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 0, 1, 2),
        "\"unhealthyPodEvictionPolicy\":\"IfHealthyBudget\",");

    // currentHealthy < desiredHealthy: checkAndDecrement refuses
    assertThat(evict("p", null).code()).isEqualTo(429);

    MapValue pdb = get(PDBS, "pdb");
    call(Verb.UPDATE, PDBS, "pdb", "status", Json.write(pdb.with("status",
        Json.read(status(1, 0, 2, 2))))).orThrow();
    // the application is healthy: the unready pod may go without taking a disruption
    assertThat(evict("q", null).code()).isEqualTo(201);
    assertThat(Nested.getOrNull(get(PDBS, "pdb"), "status", "disruptionsAllowed"))
        .isEqualTo(Value.of(0L));
  }

  @Test
  void aDryRunChangesNothing() {
    pod("p", "Running", true, "");
    budget("pdb", "{\"matchLabels\":{\"app\":\"web\"}}", status(1, 1, 3, 2), "");
    MapValue before = get(PDBS, "pdb");

    ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, PODS).namespace("default")
        .name("p").subresource("eviction").dryRun(DryRun.ALL).body(Json.read("{\"apiVersion\":"
            + "\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"p\"}}")).build());
    ApiResponse inBody = evict("p", "{\"dryRun\":[\"All\"]}");

    assertThat(r.code()).isEqualTo(201);
    assertThat(inBody.code()).isEqualTo(201);
    assertThat(get(PDBS, "pdb")).isEqualTo(before);
    assertThat(Nested.list(get(PODS, "p"), "status", "conditions")).hasSize(1);
  }

  @Test
  void aPodOnANodeIsMarkedAsADisruptionTargetAndDeletedGracefully() {
    pod("p", "Running", true, "node-1");

    assertThat(evict("p", "{\"gracePeriodSeconds\":60}").code()).isEqualTo(201);

    MapValue pod = get(PODS, "p");
    assertThat(Nested.getOrNull(pod, "metadata", "deletionGracePeriodSeconds"))
        .isEqualTo(Value.of(60L));
    MapValue target = (MapValue) Nested.list(pod, "status", "conditions").get(1);
    // a store update, as kube's: no managed fields entry for the condition
    assertThat(Json.write(Nested.getOrNull(pod, "metadata", "managedFields")))
        .doesNotContain("DisruptionTarget");
    assertThat(Json.write(target)).isEqualTo("{\"type\":\"DisruptionTarget\",\"status\":"
        + "\"True\",\"lastTransitionTime\":\"2026-01-02T03:04:05Z\","
        + "\"reason\":\"EvictionByEvictionAPI\",\"message\":\"Eviction API: evicting\"}");
  }

  @Test
  void aStaleResourceVersionPreconditionIsAConflict() {
    pod("p", "Running", true, "");

    ApiResponse r = evict("p", "{\"preconditions\":{\"resourceVersion\":\"1\"}}");

    assertThat(r.code()).isEqualTo(409);
    assertThat(Nested.str(r.body(), "message")).startsWith("Operation cannot be fulfilled on"
        + " Pod \"p\": the ResourceVersion in the precondition (1) does not match the"
        + " ResourceVersion in record (");
  }

  @Test
  void badRequestsAreRefusedWithKubesTexts() {
    pod("p", "Running", true, "");

    ApiResponse mismatch = call(Verb.CREATE, PODS, "p", "eviction", "{\"apiVersion\":"
        + "\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"q\"}}");
    ApiResponse missing = evict("nope", null);

    assertThat(mismatch.code()).isEqualTo(400);
    assertThat(Nested.str(mismatch.body(), "message"))
        .isEqualTo("name in URL does not match name in Eviction object");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(Nested.str(missing.body(), "message")).isEqualTo("pods \"nope\" not found");
    assertThat(call(Verb.GET, PODS, "p", "eviction", null).code()).isEqualTo(405);
  }
}
