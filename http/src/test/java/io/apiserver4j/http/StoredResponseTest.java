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
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Yaml;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: an object answered as the store holds it (a GET, an apply, an update) is written from
 * the store's encoding instead of being encoded again; the answer must be byte for byte what
 * encoding the answered object writes, whatever its type meta order and escapes.
 */
class StoredResponseTest {
  private static final GroupVersionResource CONFIG_MAPS =
      new GroupVersionResource("", "v1", "configmaps");
  private static final String PATH = "/api/v1/namespaces/stored/configmaps";
  // kube's audit ID is a uuid.New(): a random (version 4) UUID in its canonical form
  private static final Pattern UUID_V4 =
      Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
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
    assertThat(send("POST", "/api/v1/namespaces", "application/json",
        "{\"metadata\":{\"name\":\"stored\"}}").statusCode()).isEqualTo(201);
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

  static ApiResponse getInProcess(String name) {
    return api.handle(ApiRequest.builder(Verb.GET, CONFIG_MAPS).namespace("stored").name(name)
        .build());
  }

  @Test
  void anAppliedObjectIsAnsweredAsEncodingItWrites() throws Exception {
    for (String typeMeta : new String[] {"\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"",
        "\"kind\":\"ConfigMap\",\"apiVersion\":\"v1\""}) {
      String name = typeMeta.startsWith("\"kind\"") ? "kind-first" : "api-version-first";
      for (int n = 0; n < 3; n++) {
        HttpResponse<String> applied = send("PATCH", PATH + "/" + name
                + "?fieldManager=test&force=true", "application/apply-patch+yaml",
            "{" + typeMeta + ",\"metadata\":{\"name\":\"" + name + "\"},\"data\":{\"k\":\"<&> "
                + "\\u2028 é " + n + "\"}}");
        assertThat(applied.statusCode()).isEqualTo(n == 0 ? 201 : 200);
        ApiResponse now = getInProcess(name);
        assertThat(now.storedObject()).isPresent();
        assertThat(applied.body()).isEqualTo(Json.write(now.body()) + "\n");
        assertThat(applied.body()).contains("\\u003c\\u0026\\u003e \\u2028 é " + n);
        assertThat(applied.headers().firstValue("Content-Length"))
            .hasValue(Integer.toString(applied.body().getBytes(StandardCharsets.UTF_8).length));
      }
    }
  }

  @Test
  void aGetAnswersTheStoredObjectInEveryEncoding() throws Exception {
    assertThat(send("POST", PATH, "application/json", "{\"metadata\":{\"name\":\"got\","
        + "\"labels\":{\"a\":\"b\"}},\"data\":{\"x\":\"y\"}}").statusCode()).isEqualTo(201);
    ApiResponse in = getInProcess("got");
    assertThat(in.storedObject()).isPresent();
    assertThat(in.storedObject().get().object()).isSameAs(in.body());

    HttpResponse<String> json = client.send(HttpRequest.newBuilder(base.resolve(PATH + "/got"))
        .GET().build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(json.statusCode()).isEqualTo(200);
    assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(json.body()).isEqualTo(Json.write(in.body()) + "\n");

    HttpResponse<String> yaml = client.send(HttpRequest.newBuilder(base.resolve(PATH + "/got"))
        .header("Accept", "application/yaml").GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(Yaml.read(yaml.body())).isEqualTo(in.body());

    // a conversion (here kubectl's table) still gets the object, not the stored bytes
    HttpResponse<String> table = client.send(HttpRequest.newBuilder(base.resolve(PATH + "/got"))
        .header("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io").GET().build(),
        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    assertThat(Nested.str((MapValue) Json.read(table.body()), "kind")).isEqualTo("Table");
  }

  @Test
  void everyAnswerNamesARandomAuditId() throws Exception {
    java.util.Set<String> ids = new java.util.HashSet<>();
    for (int i = 0; i < 20; i++) {
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(base.resolve(PATH)).GET()
          .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      String id = r.headers().firstValue("Audit-Id").orElseThrow();
      assertThat(id).matches(UUID_V4);
      ids.add(id);
    }
    assertThat(ids).hasSize(20);
  }
}
