/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17, item 4: lists are streamed item by item as kube 1.33+ streams JSON lists, and answer
 * exactly what the list object built in one piece says.
 */
class StreamedListTest {
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String PATH = "/api/v1/namespaces/streamed/configmaps";
  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;

  @BeforeAll
  static void start() throws Exception {
    // about list streaming: the namespace holds only the test's ConfigMaps, without the
    // kube-root-ca.crt that the ServiceAccount plugin's controller would add
    api = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"metadata\":{\"name\":\"streamed\"}}");
    for (int i = 0; i < 7; i++) {
      // kind before apiVersion, none, or apiVersion first; escapes Go writes as \\u003c etc.
      String typeMeta = switch (i % 3) {
        case 0 -> "\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\",";
        case 1 -> "";
        default -> "\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",";
      };
      HttpResponse<String> r = send("POST", PATH, "application/json", "{" + typeMeta
          + "\"metadata\":{\"name\":\"cm-" + i + "\",\"labels\":{\"n\":\"" + i + "\"}},"
          + "\"data\":{\"k\":\"<&> \\u2028 é " + i + "\",\"x\":\"" + "y".repeat(i * 100)
          + "\"}}");
      assertThat(r.statusCode()).isEqualTo(201);
    }
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

  static HttpResponse<String> get(String pathAndQuery, String accept) throws Exception {
    return client.send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).header("Accept", accept)
        .GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  @Test
  void aJsonListIsStreamedAsTheListObjectWritesIt() throws Exception {
    HttpResponse<String> list = get(PATH, "application/json");
    assertThat(list.statusCode()).isEqualTo(200);
    // streamed: no length known up front, so the answer is chunked
    assertThat(list.headers().firstValue("Content-Length")).isEmpty();
    assertThat(list.headers().firstValue("Content-Type")).hasValue("application/json");
    MapValue in = api.handle(ApiRequest.builder(Verb.LIST, CONFIG_MAPS).namespace("streamed")
        .build()).orThrow();
    assertThat(list.body()).isEqualTo(Json.write(in) + "\n");
    MapValue body = (MapValue) Json.read(list.body());
    ListValue items = (ListValue) body.getOrNull("items");
    assertThat(items.size()).isEqualTo(7);
    for (Value item : items.items()) {
      // kube's typed list items carry no type meta
      assertThat(((MapValue) item).containsKey("kind")).isFalse();
      assertThat(((MapValue) item).containsKey("apiVersion")).isFalse();
    }
    // each item as a GET answers it, apart from the type meta
    MapValue one = (MapValue) Json.read(get(PATH + "/cm-3", "application/json").body());
    assertThat(items.get(3)).isEqualTo(one.without("apiVersion").without("kind"));
    assertThat(list.body()).contains("\\u003c\\u0026\\u003e \\u2028 é 3");
  }

  @Test
  void theSameListInYamlSaysTheSame() throws Exception {
    MapValue json = (MapValue) Json.read(get(PATH, "application/json").body());
    MapValue yaml = (MapValue) Yaml.read(get(PATH, "application/yaml").body());
    assertThat(yaml).isEqualTo(json);
  }

  @Test
  void pagesWithLimitAndContinueAreStreamedToo() throws Exception {
    List<Value> all = new ArrayList<>();
    String query = "?limit=3";
    int pages = 0;
    while (true) {
      HttpResponse<String> page = get(PATH + query, "application/json");
      assertThat(page.statusCode()).isEqualTo(200);
      MapValue body = (MapValue) Json.read(page.body());
      MapValue meta = (MapValue) body.getOrNull("metadata");
      all.addAll(((ListValue) body.getOrNull("items")).items());
      pages++;
      if (!(meta.getOrNull("continue") instanceof io.apiserver4j.core.StringValue c)) {
        assertThat(meta.containsKey("remainingItemCount")).isFalse();
        break;
      }
      // kube: remainingItemCount with a continue token when nothing is filtered
      assertThat(meta.getOrNull("remainingItemCount")).isEqualTo(Value.of(7L - all.size()));
      query = "?limit=3&continue=" + java.net.URLEncoder.encode(c.value(),
          StandardCharsets.UTF_8);
    }
    assertThat(pages).isEqualTo(3);
    MapValue full = (MapValue) Json.read(get(PATH, "application/json").body());
    assertThat(all).isEqualTo(((ListValue) full.getOrNull("items")).items());
  }

  @Test
  void aFilteredListStreamsOnlyTheMatches() throws Exception {
    MapValue body = (MapValue) Json.read(get(PATH + "?labelSelector=n%3D4", "application/json")
        .body());
    ListValue items = (ListValue) body.getOrNull("items");
    assertThat(items.size()).isEqualTo(1);
    assertThat(((MapValue) ((MapValue) items.get(0)).getOrNull("metadata")).getOrNull("name"))
        .isEqualTo(Value.of("cm-4"));
  }

  @Test
  void aHeadOfAListAnswersWithoutABody() throws Exception {
    HttpResponse<String> head = client.send(HttpRequest.newBuilder(base.resolve(PATH))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.body()).isEmpty();
    // the connection stays usable
    assertThat(get(PATH, "application/json").statusCode()).isEqualTo(200);
  }

  @Test
  void aClientThatGoesAwayMidListLeavesTheServerServing() throws Exception {
    // its own namespace, so the other tests' lists stay as they are
    send("POST", "/api/v1/namespaces", "application/json", "{\"metadata\":{\"name\":\"bulk\"}}");
    for (int i = 0; i < 300; i++) {
      send("POST", "/api/v1/namespaces/bulk/configmaps", "application/json",
          "{\"metadata\":{\"name\":\"bulk-" + i + "\"},\"data\":{\"v\":\""
              + "z".repeat(10_000) + "\"}}");
    }
    try (java.net.Socket s = new java.net.Socket(base.getHost(), base.getPort())) {
      s.getOutputStream().write(("GET /api/v1/namespaces/bulk/configmaps HTTP/1.1\r\n"
          + "Host: localhost\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      byte[] start = s.getInputStream().readNBytes(16);
      assertThat(new String(start, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 200");
    }
    HttpResponse<String> list = get(PATH + "?labelSelector=n%3D1", "application/json");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(((ListValue) ((MapValue) Json.read(list.body())).getOrNull("items")).size())
        .isEqualTo(1);
  }

  @Test
  void aListOfCustomResourcesIsStreamedAsReadWithTheirDefaults() throws Exception {
    String version = "{\"name\":\"v1\",\"served\":true,\"storage\":true,\"schema\":"
        + "{\"openAPIV3Schema\":{\"type\":\"object\",\"properties\":{\"spec\":"
        + "{\"type\":\"object\",\"properties\":{\"size\":{\"type\":\"integer\"}%s}}}}}}";
    String crd = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
        + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gizmos.stream.example.org\"},"
        + "\"spec\":{\"group\":\"stream.example.org\",\"scope\":\"Namespaced\",\"names\":"
        + "{\"plural\":\"gizmos\",\"singular\":\"gizmo\",\"kind\":\"Gizmo\"},"
        + "\"versions\":[" + version.formatted("") + "]}}";
    assertThat(send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
        "application/json", crd).statusCode()).isEqualTo(201);
    String gizmos = "/apis/stream.example.org/v1/namespaces/streamed/gizmos";
    for (int i = 0; i < 3; i++) {
      assertThat(send("POST", gizmos, "application/json", "{\"apiVersion\":"
          + "\"stream.example.org/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"g" + i
          + "\"},\"spec\":{\"size\":" + i + "}}").statusCode()).isEqualTo(201);
    }
    // a default added later shows on objects stored before it: kube defaults when it reads
    HttpResponse<String> patched = send("PATCH",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.stream.example.org",
        "application/merge-patch+json", "{\"spec\":{\"versions\":[" + version.formatted(
            ",\"color\":{\"type\":\"string\",\"default\":\"blue\"}") + "]}}");
    assertThat(patched.statusCode()).as(patched.body()).isEqualTo(200);
    HttpResponse<String> list = get(gizmos, "application/json");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.headers().firstValue("Content-Length")).isEmpty();
    MapValue body = (MapValue) Json.read(list.body());
    ListValue items = (ListValue) body.getOrNull("items");
    assertThat(items.size()).isEqualTo(3);
    for (Value item : items.items()) {
      MapValue m = (MapValue) item;
      // unstructured list items keep their type meta
      assertThat(m.getOrNull("kind")).isEqualTo(Value.of("Gizmo"));
      assertThat(((MapValue) m.getOrNull("spec")).getOrNull("color"))
          .isEqualTo(Value.of("blue"));
    }
    MapValue in = api.handle(ApiRequest.builder(Verb.LIST,
        new GroupVersionResource("stream.example.org", "v1", "gizmos")).namespace("streamed")
        .build()).orThrow();
    assertThat(list.body()).isEqualTo(Json.write(in) + "\n");
  }

  @Test
  void anEmptyListHasEmptyItems() throws Exception {
    HttpResponse<String> list = get("/api/v1/namespaces/none-here/configmaps",
        "application/json");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).contains("\"items\":[]");
  }
}
