/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.storage.InMemoryStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The special subresources are authorized as their own resources, as kube-apiserver does: an
 * eviction is {@code create} on {@code pods/eviction} (deleting pods is not enough, and the
 * eviction's own reads and writes need nothing more), a binding {@code create} on
 * {@code pods/binding}.
 */
class SubresourceAuthorizationTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  static InMemoryStore store;
  static RbacAuthorizer rbac;
  static ApiServer api;
  static HttpApiServer http;
  static final HttpClient CLIENT = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    store = InMemoryStore.create();
    rbac = RbacAuthorizer.over(store);
    api = ApiServer.builder().store(store).build();
    Bootstrap.ensure(api);
    http = HttpApiServer.builder(api)
        .authenticator(Authenticators.bearerTokens(Map.of("bob-token", UserInfo.of("bob"))))
        .authorizer(rbac)
        .build();
    http.start();
    create(new GroupVersionResource("", "v1", "namespaces"), "", "{\"apiVersion\":\"v1\","
        + "\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ev\"}}");
    for (String name : new String[] {"p", "q"}) {
      create(PODS, "ev", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
          + name + "\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}");
    }
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
    rbac.close();
  }

  private static MapValue create(GroupVersionResource gvr, String ns, String body) {
    return api.handle(ApiRequest.builder(Verb.CREATE, gvr).namespace(ns)
        .body(Json.read(body)).build()).orThrow();
  }

  private static void grant(String role, String verb, String resource) {
    GroupVersionResource roles = new GroupVersionResource("rbac.authorization.k8s.io", "v1",
        "roles");
    GroupVersionResource bindings = new GroupVersionResource("rbac.authorization.k8s.io", "v1",
        "rolebindings");
    create(roles, "ev", "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\","
        + "\"metadata\":{\"name\":\"" + role + "\"},\"rules\":[{\"apiGroups\":[\"\"],"
        + "\"resources\":[\"" + resource + "\"],\"verbs\":[\"" + verb + "\"]}]}");
    create(bindings, "ev", "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":"
        + "\"RoleBinding\",\"metadata\":{\"name\":\"" + role + "\"},\"roleRef\":{\"apiGroup\":"
        + "\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"" + role + "\"},"
        + "\"subjects\":[{\"kind\":\"User\",\"name\":\"bob\"}]}");
  }

  private static HttpResponse<String> post(String path, String body) throws Exception {
    return CLIENT.send(HttpRequest.newBuilder(URI.create(http.url() + path))
        .header("Authorization", "Bearer bob-token").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String eviction(String name) {
    return "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\""
        + name + "\"}}";
  }

  @Test
  void anEvictionNeedsCreateOnPodsEvictionAndNothingElse() throws Exception {
    grant("deleter", "delete", "pods");

    HttpResponse<String> denied = post("/api/v1/namespaces/ev/pods/p/eviction", eviction("p"));

    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(Nested.str(Json.read(denied.body()), "message")).isEqualTo("pods \"p\" is"
        + " forbidden: User \"bob\" cannot create resource \"pods/eviction\" in API group \"\""
        + " in the namespace \"ev\"");

    grant("evictor", "create", "pods/eviction");
    HttpResponse<String> evicted = post("/api/v1/namespaces/ev/pods/p/eviction", eviction("p"));

    assertThat(evicted.statusCode()).isEqualTo(201);
    assertThat(api.handle(ApiRequest.builder(Verb.GET, PODS).namespace("ev").name("p").build())
        .code()).isEqualTo(404);
    // create on pods/eviction is not create on pods/binding
    HttpResponse<String> binding = post("/api/v1/namespaces/ev/pods/q/binding", "{\"apiVersion\":"
        + "\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"q\"},\"target\":{\"name\":\"n\"}}");
    assertThat(binding.statusCode()).isEqualTo(403);
    assertThat(Nested.str(Json.read(binding.body()), "message")).contains("cannot create"
        + " resource \"pods/binding\"");
  }
}
