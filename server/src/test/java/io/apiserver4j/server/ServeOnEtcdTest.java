/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.etcd.EtcdServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code scripts/serve --etcd-servers URL}: objects live in a real etcd and outlive the server. */
class ServeOnEtcdTest {
  private static EtcdServer etcd;
  private final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void startEtcd() {
    etcd = EtcdServer.start();
  }

  @AfterAll
  static void stopEtcd() {
    etcd.close();
  }

  private ServeOptions options() {
    return ServeOptions.parse("--secure-port=0", "--etcd-servers", etcd.clientUri().toString());
  }

  private HttpResponse<String> send(int port, String method, String path, String body)
      throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("Content-Type", "application/json");
    r.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofString(body));
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void objectsWrittenThroughOneServerAreServedByTheNextOne() throws Exception {
    String uid;
    try (Serve.Running first = Serve.start(options())) {
      HttpResponse<String> created = send(first.port(), "POST",
          "/api/v1/namespaces/default/configmaps",
          "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"kept\"},"
              + "\"data\":{\"a\":\"1\"}}");
      assertThat(created.statusCode()).isEqualTo(201);
      uid = ((MapValue) ((MapValue) Json.read(created.body())).getOrNull("metadata"))
          .getOrNull("uid").toString();
    }
    try (Serve.Running second = Serve.start(options())) {
      HttpResponse<String> got = send(second.port(), "GET",
          "/api/v1/namespaces/default/configmaps/kept", null);
      assertThat(got.statusCode()).isEqualTo(200);
      MapValue cm = (MapValue) Json.read(got.body());
      assertThat(((MapValue) cm.getOrNull("metadata")).getOrNull("uid").toString()).isEqualTo(uid);
      assertThat(cm.getOrNull("data")).isEqualTo(Json.read("{\"a\":\"1\"}"));
    }
  }

  @Test
  void serviceAllocationsOutliveTheServer() throws Exception {
    String ip;
    try (Serve.Running first = Serve.start(options())) {
      HttpResponse<String> created = send(first.port(), "POST",
          "/api/v1/namespaces/default/services",
          "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"held\"},"
              + "\"spec\":{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30400}]}}");
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      ip = Json.read(created.body()).toString().replaceAll(".*\"clusterIP\":\"([^\"]+)\".*", "$1");
    }
    try (Serve.Running second = Serve.start(options())) {
      HttpResponse<String> sameIp = send(second.port(), "POST",
          "/api/v1/namespaces/default/services",
          "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"other\"},"
              + "\"spec\":{\"clusterIP\":\"" + ip + "\",\"ports\":[{\"port\":80}]}}");
      HttpResponse<String> samePort = send(second.port(), "POST",
          "/api/v1/namespaces/default/services",
          "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"third\"},"
              + "\"spec\":{\"type\":\"NodePort\",\"ports\":[{\"port\":80,\"nodePort\":30400}]}}");

      assertThat(sameIp.statusCode()).isEqualTo(422);
      assertThat(sameIp.body()).contains("failed to allocate IP " + ip
          + ": provided IP is already allocated");
      assertThat(samePort.statusCode()).isEqualTo(422);
      assertThat(samePort.body()).contains("provided port is already allocated");
    }
  }
}
