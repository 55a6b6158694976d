/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ApiWatch;
import io.apiserver4j.apiserver.ApiWatchEvent;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: a GET and the events of a JSON watch write an object served as stored from its
 * stored JSON, byte for byte what encoding its decoded tree writes; custom resources, which kube
 * converts and defaults on every read, still go through the tree.
 */
class StoredBytesTest {
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String NS = "stored-bytes";
  private static final String PATH = "/api/v1/namespaces/" + NS + "/configmaps";
  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"metadata\":{\"name\":\"" + NS + "\"}}");
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<String> send(String method, String path, String contentType, String body)
      throws Exception {
    return HttpCalls.send(client, base, method, path, contentType, body);
  }

  static ApiResponse getInProcess(GroupVersionResource r, String name) {
    return api.handle(ApiRequest.builder(Verb.GET, r).namespace(NS).name(name).build());
  }

  @Test
  void aGetOfABuiltInKindIsItsStoredJson() throws Exception {
    // kind before apiVersion, escapes Go writes as \\u003c etc., non-ASCII
    HttpResponse<String> created = send("POST", PATH, "application/json", "{\"kind\":"
        + "\"ConfigMap\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"get-me\",\"labels\":"
        + "{\"a\":\"b\"}},\"data\":{\"k\":\"<&> \\u2028 é\"}}");
    assertThat(created.statusCode()).isEqualTo(201);
    ApiResponse in = getInProcess(CONFIG_MAPS, "get-me");
    assertThat(in.storedObject()).as("served as stored").isPresent();
    HttpResponse<String> get = send("GET", PATH + "/get-me", null, null);
    assertThat(get.statusCode()).isEqualTo(200);
    assertThat(get.headers().firstValue("Content-Type")).hasValue("application/json");
    // the tree's encoding, as the answer was written before
    assertThat(get.body()).isEqualTo(Json.write(in.body()) + "\n");
    assertThat(get.headers().firstValueAsLong("Content-Length"))
        .hasValue(get.body().getBytes(StandardCharsets.UTF_8).length);
    assertThat(get.body()).contains("\\u003c\\u0026\\u003e \\u2028 é");
    // what the create answered (same object, same revision)
    assertThat(get.body()).isEqualTo(created.body());
    // YAML and Table still go through the tree
    HttpResponse<String> yaml = client.send(HttpRequest.newBuilder(base.resolve(PATH
        + "/get-me")).header("Accept", "application/yaml").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(io.apiserver4j.core.Yaml.read(yaml.body())).isEqualTo(in.body());
    HttpResponse<String> table = client.send(HttpRequest.newBuilder(base.resolve(PATH
        + "/get-me")).header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(Nested.str((MapValue) Json.read(table.body()), "kind")).isEqualTo("Table");
  }

  @Test
  void eventsOfAJsonWatchAreTheirStoredJson() throws Exception {
    HttpResponse<String> created = send("POST", PATH, "application/json",
        "{\"metadata\":{\"name\":\"watch-me\"},\"data\":{\"k\":\"<v>\"}}");
    String rv = Nested.str((MapValue) Json.read(created.body()), "metadata",
        "resourceVersion");
    assertThat(send("PATCH", PATH + "/watch-me", "application/merge-patch+json",
        "{\"data\":{\"k\":\"w\"}}").statusCode()).isEqualTo(200);
    assertThat(send("DELETE", PATH + "/watch-me", null, null).statusCode()).isEqualTo(200);
    // the same events in process, from the revision before the create
    long before = Long.parseLong(rv) - 1;
    List<String> expected = new ArrayList<>();
    try (ApiWatch w = api.watch(ApiRequest.builder(Verb.WATCH, CONFIG_MAPS).namespace(NS)
        .fieldSelector(io.apiserver4j.core.fields.FieldSelector.equal("metadata.name", "watch-me"))
        .resourceVersion(Long.toString(before)).build())) {
      while (expected.size() < 3) {
        Optional<ApiWatchEvent> e = w.poll(Duration.ofSeconds(10));
        assertThat(e).as("event %d", expected.size()).isPresent();
        assertThat(e.get().storedObject()).as("served as stored").isPresent();
        expected.add("{\"type\":\"" + e.get().type() + "\",\"object\":"
            + Json.write(e.get().object()) + "}");
      }
    }
    assertThat(expected.get(2)).startsWith("{\"type\":\"DELETED\"");
    HttpResponse<InputStream> watch = client.send(HttpRequest.newBuilder(base.resolve(PATH
        + "?watch=true&fieldSelector=metadata.name%3Dwatch-me&resourceVersion=" + before))
        .build(), HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader in = new BufferedReader(new InputStreamReader(watch.body(),
        StandardCharsets.UTF_8))) {
      for (String line : expected) {
        assertThat(in.readLine()).isEqualTo(line);
      }
    }
  }

  @Test
  void customResourcesAreDefaultedOnEveryReadStill() throws Exception {
    String version = "{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
        + "{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":"
        + "{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}%s}}}}}}";
    String crd = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
        + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"doodads.stored.example.org\"},"
        + "\"spec\":{\"group\":\"stored.example.org\",\"scope\":\"Namespaced\",\"names\":"
        + "{\"plural\":\"doodads\",\"singular\":\"doodad\",\"kind\":\"Doodad\"},"
        + "\"versions\":[" + version.formatted("") + "]}}";
    assertThat(send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        "application/json", crd).statusCode()).isEqualTo(201);
    String doodads = "/apis/stored.example.org/v1/namespaces/" + NS + "/doodads";
    HttpResponse<String> created = send("POST", doodads, "application/json", "{\"apiVersion\":"
        + "\"stored.example.org/v1\",\"kind\":\"Doodad\",\"metadata\":{\"name\":\"d\"},"
        + "\"spec\":{\"size\":1}}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String rv = Nested.str((MapValue) Json.read(created.body()), "metadata", "resourceVersion");
    // a default added later shows on the object stored before it
    HttpResponse<String> patched = send("PATCH",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/doodads.stored.example.org",
        "application/merge-patch+json", "{\"spec\":{\"versions\":[" + version.formatted(
            ",\"color\":{\"type\":\"string\",\"default\":\"blue\"}") + "]}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    GroupVersionResource r = new GroupVersionResource("stored.example.org", "v1", "doodads");
    ApiResponse in = getInProcess(r, "d");
    assertThat(in.storedObject()).as("not served as stored").isEmpty();
    HttpResponse<String> get = send("GET", doodads + "/d", null, null);
    assertThat(Nested.str((MapValue) Json.read(get.body()), "spec", "color")).isEqualTo("blue");
    assertThat(get.body()).isEqualTo(Json.write(in.body()) + "\n");
    // and so does its watch event
    HttpResponse<InputStream> watch = client.send(HttpRequest.newBuilder(base.resolve(doodads
        + "?watch=true&resourceVersion=" + (Long.parseLong(rv) - 1))).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(watch.body(),
        StandardCharsets.UTF_8))) {
      MapValue event = (MapValue) Json.read(lines.readLine());
      assertThat(event.getOrNull("type")).isEqualTo(Value.of("ADDED"));
      assertThat(Nested.str((MapValue) event.getOrNull("object"), "spec", "color"))
          .isEqualTo("blue");
    }
  }
}
