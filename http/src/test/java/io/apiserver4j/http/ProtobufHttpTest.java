/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.ProtobufCodec;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Protobuf over HTTP as client-go speaks it (body in protobuf, {@code Accept:
 * application/vnd.kubernetes.protobuf,application/json}): the answers, decoded, are the objects
 * the same requests get in JSON.
 */
class ProtobufHttpTest {
  private static final String PROTOBUF = "application/vnd.kubernetes.protobuf";
  private static final String CLIENT_GO_ACCEPT = PROTOBUF + ",application/json";
  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;
  private final ProtobufCodec codec = ProtobufCodec.builtIn();

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    api.resources("v1", "namespaces").create(MapValue.ofEntries("apiVersion", Value.of("v1"),
        "kind", Value.of("Namespace"), "metadata", MapValue.ofEntries("name", Value.of("pb"))));
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<byte[]> send(String method, String path, String contentType, byte[] body,
      String accept) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body))
        .header("Accept", accept);
    if (contentType != null) {
      b.header("Content-Type", contentType);
    }
    return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * The JSON answer, without null fields: this server's JSON writes a pod template's zero
   * {@code creationTimestamp} as null, which kube 1.36 leaves out (omitzero) as the protobuf
   * decoding does; to Go both are the zero time.
   */
  static MapValue json(HttpResponse<byte[]> r) {
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    return (MapValue) withoutNulls(Json.read(r.body()));
  }

  static Value withoutNulls(Value v) {
    if (v instanceof MapValue m) {
      MapValue.Builder b = MapValue.builder();
      m.forEach((k, x) -> {
        if (x.kind() != Value.Kind.NULL) {
          b.put(k, withoutNulls(x));
        }
      });
      return b.build();
    }
    if (v instanceof io.apiserver4j.core.ListValue l) {
      return io.apiserver4j.core.ListValue.of(l.items().stream().map(ProtobufHttpTest::withoutNulls)
          .toList());
    }
    return v;
  }

  MapValue protobuf(HttpResponse<byte[]> r) {
    assertThat(r.headers().firstValue("Content-Type")).hasValue(PROTOBUF);
    return codec.decode(r.body());
  }

  static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/pb/deployments";

  @Test
  void createGetListAndErrorsInProtobufAreTheirJson() throws Exception {
    MapValue deployment = (MapValue) Json.read("""
        {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"a":"b"}},
         "spec":{"replicas":0,"selector":{"matchLabels":{"app":"web"}},
                 "template":{"metadata":{"labels":{"app":"web"}},
                             "spec":{"containers":[{"name":"c","image":"nginx",
                                     "resources":{"limits":{"cpu":"500m","memory":"1Gi"}}}]}},
                 "strategy":{"type":"RollingUpdate",
                             "rollingUpdate":{"maxSurge":"50%","maxUnavailable":0}}}}""");
    HttpResponse<byte[]> created = send("POST", DEPLOYMENTS, PROTOBUF, codec.encode(deployment),
        CLIENT_GO_ACCEPT);
    assertThat(created.statusCode()).as(new String(created.body())).isEqualTo(201);
    MapValue createdObject = protobuf(created);
    // an explicit zero for a Go pointer survives protobuf (and is not defaulted to 1)
    assertThat(((MapValue) createdObject.getOrNull("spec")).getOrNull("replicas"))
        .isEqualTo(Value.of(0L));

    MapValue asJson = json(send("GET", DEPLOYMENTS + "/web", null, null, "application/json"));
    assertThat(protobuf(send("GET", DEPLOYMENTS + "/web", null, null, CLIENT_GO_ACCEPT)))
        .isEqualTo(asJson);
    assertThat(createdObject).isEqualTo(asJson);

    MapValue listJson = json(send("GET", DEPLOYMENTS, null, null, "application/json"));
    MapValue listProtobuf = protobuf(send("GET", DEPLOYMENTS, null, null, CLIENT_GO_ACCEPT));
    assertThat(listProtobuf.getOrNull("kind")).isEqualTo(Value.of("DeploymentList"));
    assertThat(listProtobuf).isEqualTo(listJson);

    HttpResponse<byte[]> missing = send("GET", DEPLOYMENTS + "/nope", null, null,
        CLIENT_GO_ACCEPT);
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(protobuf(missing)).isEqualTo(json(send("GET", DEPLOYMENTS + "/nope", null, null,
        "application/json")));

    HttpResponse<byte[]> again = send("POST", DEPLOYMENTS, PROTOBUF, codec.encode(deployment),
        CLIENT_GO_ACCEPT);
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(protobuf(again).getOrNull("reason")).isEqualTo(Value.of("AlreadyExists"));
  }

  @Test
  void updateInProtobuf() throws Exception {
    MapValue cm = (MapValue) Json.read("""
        {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"u"},"data":{"a":"1"}}""");
    HttpResponse<byte[]> created = send("POST", "/api/v1/namespaces/pb/configmaps", PROTOBUF,
        codec.encode(cm), CLIENT_GO_ACCEPT);
    assertThat(created.statusCode()).isEqualTo(201);
    MapValue live = protobuf(created);
    MapValue changed = live.with("data", MapValue.ofEntries("a", Value.of("2")))
        .with("binaryData", MapValue.ofEntries("b", Value.of("AAE=")));
    HttpResponse<byte[]> updated = send("PUT", "/api/v1/namespaces/pb/configmaps/u", PROTOBUF,
        codec.encode(changed), CLIENT_GO_ACCEPT);
    assertThat(updated.statusCode()).as(new String(updated.body())).isEqualTo(200);
    MapValue after = protobuf(updated);
    assertThat(after.getOrNull("data")).isEqualTo(MapValue.ofEntries("a", Value.of("2")));
    assertThat(after.getOrNull("binaryData")).isEqualTo(MapValue.ofEntries("b",
        Value.of("AAE=")));
  }

  @Test
  void watchStreamsLengthPrefixedWatchEvents() throws Exception {
    MapValue list = protobuf(send("GET", "/api/v1/namespaces/pb/secrets", null, null,
        CLIENT_GO_ACCEPT));
    String rv = ((io.apiserver4j.core.StringValue) ((MapValue) list.getOrNull("metadata"))
        .getOrNull("resourceVersion")).value();
    HttpRequest watch = HttpRequest.newBuilder(base.resolve(
            "/api/v1/namespaces/pb/secrets?watch=1&timeoutSeconds=30&resourceVersion=" + rv))
        .header("Accept", CLIENT_GO_ACCEPT).GET().build();
    HttpResponse<java.io.InputStream> stream = client.send(watch,
        HttpResponse.BodyHandlers.ofInputStream());
    try (java.io.InputStream in = stream.body()) {
      assertThat(stream.statusCode()).isEqualTo(200);
      assertThat(stream.headers().firstValue("Content-Type"))
          .hasValue("application/vnd.kubernetes.protobuf;stream=watch");
      MapValue secret = (MapValue) Json.read("""
          {"apiVersion":"v1","kind":"Secret","metadata":{"name":"w"},"data":{"k":"dg=="}}""");
      HttpResponse<byte[]> created = send("POST", "/api/v1/namespaces/pb/secrets", PROTOBUF,
          codec.encode(secret), CLIENT_GO_ACCEPT);
      assertThat(created.statusCode()).isEqualTo(201);

      byte[] length = in.readNBytes(4);
      int n = ((length[0] & 0xff) << 24) | ((length[1] & 0xff) << 16)
          | ((length[2] & 0xff) << 8) | (length[3] & 0xff);
      ProtobufCodec.WatchEvent event = codec.decodeWatchEvent(in.readNBytes(n));
      assertThat(event.type()).isEqualTo("ADDED");
      assertThat(event.object()).isEqualTo(protobuf(created));
    }
  }

  @Test
  void customResourceDefinitionsInProtobufTheirResourcesInJsonOnly() throws Exception {
    MapValue crd = (MapValue) Json.read("""
        {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
         "metadata":{"name":"widgets.example.org"},
         "spec":{"group":"example.org","scope":"Namespaced",
                 "names":{"plural":"widgets","singular":"widget","kind":"Widget"},
                 "versions":[{"name":"v1","served":true,"storage":true,
                   "schema":{"openAPIV3Schema":{"type":"object","properties":{
                     "spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,
                             "properties":{"size":{"type":"integer","minimum":1},
                                           "tags":{"type":"array","items":{"type":"string"}},
                                           "mode":{"type":"string","enum":["a","b"]}}}}}}}]}}""");
    HttpResponse<byte[]> created = send("POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", PROTOBUF, codec.encode(crd),
        CLIENT_GO_ACCEPT);
    assertThat(created.statusCode()).as(new String(created.body())).isEqualTo(201);
    String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.org";
    assertThat(protobuf(created).getOrNull("spec"))
        .isEqualTo(json(send("GET", path, null, null, "application/json")).getOrNull("spec"));

    String widgets = "/apis/example.org/v1/namespaces/pb/widgets";
    HttpResponse<byte[]> onlyProtobuf = send("GET", widgets, null, null, PROTOBUF);
    assertThat(onlyProtobuf.statusCode()).isEqualTo(406);
    HttpResponse<byte[]> fallback = send("GET", widgets, null, null, CLIENT_GO_ACCEPT);
    assertThat(fallback.statusCode()).isEqualTo(200);
    assertThat(json(fallback).getOrNull("kind")).isEqualTo(Value.of("WidgetList"));
    // established (its resource is served): the definition no longer changes
    assertThat(protobuf(send("GET", path, null, null, CLIENT_GO_ACCEPT)))
        .isEqualTo(json(send("GET", path, null, null, "application/json")));

    // kube has no protobuf form for custom resources: such a body is 415
    byte[] widget = envelope("example.org/v1", "Widget", new byte[] {0x0a, 3, 0x0a, 1, 'w'});
    HttpResponse<byte[]> post = send("POST", widgets, PROTOBUF, widget, CLIENT_GO_ACCEPT);
    assertThat(post.statusCode()).isEqualTo(415);
    assertThat(json(post).getOrNull("reason")).isEqualTo(Value.of("UnsupportedMediaType"));
  }

  /** {@code k8s\0} and a runtime.Unknown {typeMeta {apiVersion, kind}, raw}, by hand. */
  static byte[] envelope(String apiVersion, String kind, byte[] raw) {
    java.io.ByteArrayOutputStream typeMeta = new java.io.ByteArrayOutputStream();
    typeMeta.write(0x0a);
    typeMeta.write(apiVersion.length());
    typeMeta.writeBytes(apiVersion.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    typeMeta.write(0x12);
    typeMeta.write(kind.length());
    typeMeta.writeBytes(kind.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.writeBytes(new byte[] {'k', '8', 's', 0, 0x0a, (byte) typeMeta.size()});
    out.writeBytes(typeMeta.toByteArray());
    out.write(0x12);
    out.write(raw.length);
    out.writeBytes(raw);
    return out.toByteArray();
  }
}
