/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import org.junit.jupiter.api.Test;

/**
 * What a bare server answers for the resources that store nothing: kube-apiserver's answers
 * with its default AlwaysAllow authorizer and no token authenticator, and kube's BindingREST.
 */
class DefaultVirtualCreatesTest {
  private static final GroupVersionResource SAR =
      new GroupVersionResource("authorization.k8s.io", "v1", "subjectaccessreviews");
  private static final GroupVersionResource SSRR =
      new GroupVersionResource("authorization.k8s.io", "v1", "selfsubjectrulesreviews");
  private static final GroupVersionResource SSR =
      new GroupVersionResource("authentication.k8s.io", "v1", "selfsubjectreviews");
  private static final GroupVersionResource TOKEN_REVIEWS =
      new GroupVersionResource("authentication.k8s.io", "v1", "tokenreviews");
  private static final GroupVersionResource BINDINGS =
      new GroupVersionResource("", "v1", "bindings");
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

  private static ApiResponse create(ApiServer server, GroupVersionResource r, String ns,
      String yaml) {
    return server.handle(ApiRequest.builder(Verb.CREATE, r).namespace(ns)
        .user(UserInfo.of("alice", "devs")).body(Yaml.read(yaml)).build());
  }

  @Test
  void reviewsAreAnsweredAsAlwaysAllowDoesAndStoreNothing() {
    try (ApiServer server = ApiServer.builder().bootstrap(false)
        .disableAdmissionPlugins(Fixtures.IN_PROCESS_PLUGINS).build()) {
      MapValue sar = create(server, SAR, "", """
          apiVersion: authorization.k8s.io/v1
          kind: SubjectAccessReview
          spec: {user: bob, resourceAttributes: {verb: delete, resource: nodes}}
          """).orThrow();
      assertThat(Json.write(sar.getOrNull("status"))).isEqualTo("{\"allowed\":true}");

      ApiResponse noSubject = create(server, SAR, "", """
          apiVersion: authorization.k8s.io/v1
          kind: SubjectAccessReview
          spec: {resourceAttributes: {verb: get, resource: pods}}
          """);
      assertThat(noSubject.code()).isEqualTo(422);
      assertThat(noSubject.failure().orElseThrow().message()).isEqualTo(
          "SubjectAccessReview.authorization.k8s.io \"\" is invalid: spec.user: Invalid value:"
          + " \"\": at least one of user or group must be specified");

      MapValue rules = create(server, SSRR, "", """
          apiVersion: authorization.k8s.io/v1
          kind: SelfSubjectRulesReview
          spec: {namespace: default}
          """).orThrow();
      assertThat(Json.write(rules.getOrNull("status"))).isEqualTo("{\"resourceRules\":[{"
          + "\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}],"
          + "\"nonResourceRules\":[{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}],"
          + "\"incomplete\":false}");

      MapValue me = create(server, SSR, "", """
          apiVersion: authentication.k8s.io/v1
          kind: SelfSubjectReview
          """).orThrow();
      assertThat(Json.write(Nested.getOrNull(me, "status", "userInfo")))
          .isEqualTo("{\"username\":\"alice\",\"groups\":[\"devs\"]}");

      ApiResponse noToken = create(server, TOKEN_REVIEWS, "", """
          apiVersion: authentication.k8s.io/v1
          kind: TokenReview
          spec: {}
          """);
      assertThat(noToken.code()).isEqualTo(400);
      assertThat(noToken.failure().orElseThrow().message())
          .isEqualTo("token is required for TokenReview in authentication");
      MapValue token = create(server, TOKEN_REVIEWS, "", """
          apiVersion: authentication.k8s.io/v1
          kind: TokenReview
          spec: {token: abc}
          """).orThrow();
      assertThat(Nested.bool(token, "status", "authenticated")).isFalse();
    }
  }

  @Test
  void aBindingAssignsItsPodOnce() {
    try (ApiServer server = ApiServer.builder().bootstrap(false)
        .disableAdmissionPlugins(Fixtures.IN_PROCESS_PLUGINS)
        .clock(java.time.Clock.fixed(java.time.Instant.parse("2025-01-01T00:00:00Z"),
            java.time.ZoneOffset.UTC)).build()) {
      server.resources(PODS).namespace("default").create(Yaml.read("""
          apiVersion: v1
          kind: Pod
          metadata: {name: p}
          spec: {containers: [{name: main, image: nginx}]}
          """));
      String binding = """
          apiVersion: v1
          kind: Binding
          metadata: {name: p, annotations: {scheduled-by: test}}
          target: {kind: Node, name: node-a}
          """;

      ApiResponse bound = create(server, BINDINGS, "default", binding);

      assertThat(bound.code()).isEqualTo(201);
      assertThat(Json.write(bound.body())).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":"
          + "\"v1\",\"metadata\":{},\"status\":\"Success\",\"code\":201}");
      MapValue pod = server.resources(PODS).namespace("default").get("p");
      assertThat(Nested.str(pod, "spec", "nodeName")).isEqualTo("node-a");
      assertThat(Nested.str(pod, "metadata", "annotations", "scheduled-by")).isEqualTo("test");
      assertThat(Json.write(Nested.list(pod, "status", "conditions").get(0)))
          .isEqualTo("{\"type\":\"PodScheduled\",\"status\":\"True\",\"lastProbeTime\":null,"
              + "\"lastTransitionTime\":\"2025-01-01T00:00:00Z\"}");

      ApiResponse again = create(server, BINDINGS, "default", binding);
      assertThat(again.code()).isEqualTo(409);
      assertThat(again.failure().orElseThrow().message()).isEqualTo("Operation cannot be"
          + " fulfilled on pods/binding \"p\": pod p is already assigned to node \"node-a\"");
      assertThat(create(server, BINDINGS, "default", binding.replace("name: p,", "name: q,"))
          .code()).isEqualTo(404);
    }
  }

  @Test
  void theEmbeddersAnswersComeFirst() {
    try (ApiServer server = ApiServer.builder().bootstrap(false)
        .disableAdmissionPlugins(Fixtures.IN_PROCESS_PLUGINS)
        .virtualCreate(new GroupResource("authorization.k8s.io", "subjectaccessreviews"),
            (user, ns, review) -> review.with("status", MapValue.ofEntries("allowed",
                Value.of(false), "reason", Value.of("embedder says no"))))
        .build()) {
      MapValue sar = create(server, SAR, "", """
          apiVersion: authorization.k8s.io/v1
          kind: SubjectAccessReview
          spec: {user: bob, resourceAttributes: {verb: get, resource: pods}}
          """).orThrow();
      assertThat(Nested.str(sar, "status", "reason")).isEqualTo("embedder says no");
    }
  }
}
