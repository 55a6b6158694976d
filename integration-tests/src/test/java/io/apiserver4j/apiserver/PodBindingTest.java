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
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code pods/binding} and the legacy {@code bindings} resource as kube-apiserver's BindingREST
 * (pkg/registry/core/pod/storage/storage.go): the pod gets its node, the Binding's annotations
 * and {@code PodScheduled=True}; a bound pod refuses another binding with kube's 409.
 */
class PodBindingTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource BINDINGS =
      new GroupVersionResource("", "v1", "bindings");
  private final ApiServer server = ApiServer.builder()
      .clock(new TestClock(Instant.parse("2026-01-02T03:04:05Z"))).build();

  @AfterEach
  void close() {
    server.close();
  }

  private ApiResponse post(GroupVersionResource gvr, String name, String sub, String body) {
    ApiRequest.Builder b = ApiRequest.builder(Verb.CREATE, gvr).namespace("default")
        .body(Json.read(body));
    if (!name.isEmpty()) {
      b.name(name).subresource(sub);
    }
    return server.handle(b.build());
  }

  private MapValue pod(String name) {
    return server.handle(ApiRequest.builder(Verb.GET, PODS).namespace("default").name(name)
        .build()).orThrow();
  }

  private void createPod(String name, String extraSpec) {
    post(PODS, "", "", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\",\"annotations\":{\"a\":\"1\"}},\"spec\":{" + extraSpec
        + "\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}").orThrow();
  }

  private static String binding(String name, String node) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"" + name
        + "\",\"annotations\":{\"b\":\"2\"}},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\","
        + "\"name\":\"" + node + "\"}}";
  }

  @Test
  void aBindingAssignsTheNodeWithItsAnnotationsAndThePodScheduledCondition() {
    createPod("p", "");
    String rv = Nested.str(pod("p"), "metadata", "resourceVersion");

    ApiResponse r = post(PODS, "p", "binding", binding("p", "node-1"));

    assertThat(r.code()).isEqualTo(201);
    assertThat(Json.write(r.body())).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Success\",\"code\":201}");
    MapValue pod = pod("p");
    assertThat(Nested.str(pod, "spec", "nodeName")).isEqualTo("node-1");
    assertThat(Json.write(Nested.getOrNull(pod, "metadata", "annotations")))
        .isEqualTo("{\"a\":\"1\",\"b\":\"2\"}");
    assertThat(Json.write(Nested.getOrNull(pod, "status", "conditions"))).isEqualTo(
        "[{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastProbeTime\":null,\"lastTransitionTime\":"
            + "\"2026-01-02T03:04:05Z\"}]");
    assertThat(Nested.str(pod, "metadata", "resourceVersion")).isNotEqualTo(rv);
  }

  @Test
  void aPodAlreadyBoundRefusesWithKubesConflict() {
    createPod("p", "\"nodeName\":\"node-1\",");

    ApiResponse r = post(PODS, "p", "binding", binding("p", "node-2"));

    assertThat(r.code()).isEqualTo(409);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Operation cannot be fulfilled on"
        + " pods/binding \"p\": pod p is already assigned to node \"node-1\"");
    assertThat(Nested.str(pod("p"), "spec", "nodeName")).isEqualTo("node-1");
  }

  @Test
  void aGatedPodCannotBeBound() {
    createPod("p", "\"schedulingGates\":[{\"name\":\"wait\"}],");

    ApiResponse r = post(PODS, "p", "binding", binding("p", "node-1"));

    assertThat(r.code()).isEqualTo(409);
    assertThat(Nested.str(r.body(), "message")).isEqualTo("Operation cannot be fulfilled on"
        + " pods/binding \"p\": pod p has non-empty .spec.schedulingGates");
  }

  @Test
  void theLegacyBindingsResourceBindsThePodItNames() {
    createPod("p", "");

    ApiResponse r = post(BINDINGS, "", "", binding("p", "node-1"));

    assertThat(r.code()).isEqualTo(201);
    assertThat(Nested.str(pod("p"), "spec", "nodeName")).isEqualTo("node-1");
    // nothing of kind Binding is stored
    assertThat(server.handle(ApiRequest.builder(Verb.GET, BINDINGS).namespace("default")
        .name("p").build()).code()).isEqualTo(405);
  }

  @Test
  void invalidBindingsAndPreconditionsAreRefused() {
    createPod("p", "");

    ApiResponse noTarget = post(PODS, "p", "binding", "{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Binding\",\"metadata\":{\"name\":\"p\"},\"target\":{\"kind\":\"Pod\"}}");
    ApiResponse mismatch = post(PODS, "p", "binding", binding("q", "node-1"));
    ApiResponse staleUid = post(PODS, "p", "binding", "{\"apiVersion\":\"v1\",\"kind\":"
        + "\"Binding\",\"metadata\":{\"name\":\"p\",\"uid\":\"other\"},\"target\":{\"name\":"
        + "\"node-1\"}}");
    ApiResponse missing = post(PODS, "nope", "binding", binding("nope", "node-1"));

    // ValidatePodBinding's errors come back aggregated, as a plain error
    assertThat(noTarget.code()).isEqualTo(500);
    assertThat(Nested.str(noTarget.body(), "message")).isEqualTo("[target.kind: Unsupported"
        + " value: \"Pod\": supported values: \"Node\", \"<empty>\", target.name: Required"
        + " value]");
    assertThat(mismatch.code()).isEqualTo(400);
    assertThat(Nested.str(mismatch.body(), "message"))
        .isEqualTo("name in URL does not match name in Binding object");
    assertThat(staleUid.code()).isEqualTo(409);
    assertThat(Nested.str(staleUid.body(), "message")).contains("Precondition failed: UID in"
        + " precondition: other, UID in object meta: ");
    assertThat(missing.code()).isEqualTo(404);
    assertThat(Nested.str(missing.body(), "message")).isEqualTo("pods \"nope\" not found");
    assertThat(Nested.str(pod("p"), "spec", "nodeName")).isEmpty();
  }

  @Test
  void aDryRunBindsNothing() {
    createPod("p", "");

    ApiResponse r = server.handle(ApiRequest.builder(Verb.CREATE, PODS).namespace("default")
        .name("p").subresource("binding").dryRun(DryRun.ALL)
        .body(Json.read(binding("p", "node-1"))).build());

    assertThat(r.code()).isEqualTo(201);
    assertThat(Nested.str(pod("p"), "spec", "nodeName")).isEmpty();
  }
}
