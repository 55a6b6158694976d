/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.Yaml;
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
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The HTTP binding seen by plain HTTP clients: discovery, OpenAPI, content negotiation, errors
 * with their exact Status bodies, warnings, watches, timeouts and HTTP/2.
 */
class HttpProtocolTest {
  static final String TABLE_ACCEPT = "application/json;as=Table;v=v1;g=meta.k8s.io,"
      + "application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
  static final String AGGREGATED_ACCEPT = "application/json;g=apidiscovery.k8s.io;v=v2;"
      + "as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;"
      + "as=APIGroupDiscoveryList,application/json";

  static ApiServer api;
  static HttpApiServer http;
  static URI base;
  static HttpClient client;

  /**
   * Holds requests on ConfigMaps named "slow" until the test releases them (at most 30 s), to
   * exercise request timeouts.
   */
  static final class SlowPlugin implements ValidatingPlugin {
    static final java.util.concurrent.CountDownLatch RELEASE =
        new java.util.concurrent.CountDownLatch(1);

    @Override
    public String name() {
      return "Slow";
    }

    @Override
    public SideEffects sideEffects() {
      return SideEffects.NONE;
    }

    @Override
    public void validate(AdmissionAttributes attributes) {
      if (attributes.name().equals("slow")) {
        try {
          RELEASE.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  @BeforeAll
  static void start() {
    // about the protocol: no controller writes beside the test's (disableAdmissionPlugins)
    api = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").admission(AdmissionChain.builder().add(new SlowPlugin()).build())
        .build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<String> send(String method, String path, String contentType, String body,
      String... headers) throws Exception {
    return HttpCalls.send(client, base, method, path, contentType, body, headers);
  }

  static HttpResponse<String> get(String path, String... headers) throws Exception {
    return send("GET", path, null, null, headers);
  }

  static MapValue json(HttpResponse<String> r) {
    return (MapValue) Json.read(r.body());
  }

  static String configMap(String name, String extra) {
    return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
        + "\"}" + extra + "}";
  }

  // ---- non-resource endpoints --------------------------------------------------------------

  @Test
  void versionAndHealth() throws Exception {
    HttpResponse<String> v = get("/version?timeout=32s");
    assertThat(v.statusCode()).isEqualTo(200);
    // kube 1.36's version.Info (k8s.io/apimachinery pkg/version), its fields in that order; the
    // emulation and minimum compatibility versions as compatibility.effectiveVersion.Info()
    // reports them by default (the binary's, and one minor below)
    MapValue version = (MapValue) json(v);
    assertThat(v.body().replaceAll("\\s", "")).matches("\\{\"major\":\"1\",\"minor\":\"36\","
        + "\"emulationMajor\":\"1\",\"emulationMinor\":\"36\",\"minCompatibilityMajor\":\"1\","
        + "\"minCompatibilityMinor\":\"35\",\"gitVersion\":\"v1\\.36\\.0\","
        + "\"gitCommit\":\"[0-9a-f]{40}\","
        + "\"gitTreeState\":\"clean\",\"buildDate\":\"[^\"]+\",\"goVersion\":\"[^\"]+\","
        + "\"compiler\":\"gc\",\"platform\":\"[^\"]+\"\\}");
    assertThat(version.getOrNull("gitVersion")).isEqualTo(Value.of("v1.36.0"));
    assertThat(List.of("major", "minor", "emulationMajor", "emulationMinor",
        "minCompatibilityMajor", "minCompatibilityMinor").stream()
        .map(k -> ((StringValue) version.getOrNull(k)).value()).toList())
        .containsExactly("1", "36", "1", "36", "1", "35");
    assertThat(Nested.str(version, "gitTreeState")).isEqualTo("clean");
    assertThat(Nested.str(version, "compiler")).isEqualTo("gc");
    assertThat(Nested.str(version, "goVersion")).startsWith("go1.26");
    assertThat(Nested.str(version, "buildDate"))
        .matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    assertThat(Nested.str(version, "platform")).matches("(linux|darwin|windows)/[a-z0-9]+");
    for (String p : List.of("/healthz", "/livez", "/readyz", "/readyz/ping")) {
      HttpResponse<String> h = get(p);
      assertThat(h.statusCode()).as(p).isEqualTo(200);
      assertThat(h.body()).as(p).isEqualTo("ok");
    }
    assertThat(get("/readyz?verbose").body()).contains("[+]ping ok").endsWith(
        "readyz check passed\n");
  }

  @Test
  void discoveryIsAggregatedWhenAskedAsKubectlAsks() throws Exception {
    HttpResponse<String> agg = get("/apis?timeout=32s", "Accept", AGGREGATED_ACCEPT);
    assertThat(agg.statusCode()).isEqualTo(200);
    assertThat(agg.headers().firstValue("Content-Type")).hasValue(
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList");
    MapValue list = json(agg);
    assertThat(list.getOrNull("kind")).isEqualTo(Value.of("APIGroupDiscoveryList"));
    List<String> groups = new ArrayList<>();
    for (Value item : ((ListValue) list.getOrNull("items")).items()) {
      groups.add(((StringValue) ((MapValue) ((MapValue) item).getOrNull("metadata"))
          .getOrNull("name")).value());
    }
    assertThat(groups).contains("apps", "batch", "apiextensions.k8s.io");

    HttpResponse<String> beta = get("/api", "Accept", "application/json;g=apidiscovery.k8s.io;"
        + "v=v2beta1;as=APIGroupDiscoveryList,application/json");
    assertThat(beta.headers().firstValue("Content-Type")).hasValue(
        "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList");
    assertThat(beta.body()).contains("\"resource\":\"configmaps\"")
        .contains("\"shortNames\":[\"cm\"]");
  }

  @Test
  void legacyDiscovery() throws Exception {
    HttpResponse<String> api = get("/api", "Accept", "application/json, */*");
    assertThat(api.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(api.body()).startsWith("{\"kind\":\"APIVersions\",\"versions\":[\"v1\"],"
        + "\"serverAddressByClientCIDRs\":[{\"clientCIDR\":\"0.0.0.0/0\",\"serverAddress\":"
        + "\"127.0.0.1:" + base.getPort() + "\"}]}");
    assertThat(get("/apis").body()).contains("{\"name\":\"apps\",\"versions\":"
        + "[{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}],\"preferredVersion\":"
        + "{\"groupVersion\":\"apps/v1\",\"version\":\"v1\"}}");
    assertThat(get("/apis/apps").body()).startsWith("{\"kind\":\"APIGroup\"");
    String apps = get("/apis/apps/v1").body();
    assertThat(apps).contains("\"name\":\"deployments/scale\",\"singularName\":\"\","
        + "\"namespaced\":true,\"group\":\"autoscaling\",\"version\":\"v1\",\"kind\":\"Scale\"");
    assertThat(get("/api/v1").body()).contains("{\"name\":\"configmaps\",\"singularName\":"
        + "\"configmap\",\"namespaced\":true,\"kind\":\"ConfigMap\",\"verbs\":[\"create\","
        + "\"delete\",\"deletecollection\",\"get\",\"list\",\"patch\",\"update\",\"watch\"],"
        + "\"shortNames\":[\"cm\"],\"storageVersionHash\":\"qFsyl6wFWjQ=\"}");
  }

  @Test
  void openApi() throws Exception {
    MapValue index = json(get("/openapi/v3?timeout=32s"));
    String url = ((StringValue) ((MapValue) ((MapValue) index.getOrNull("paths"))
        .getOrNull("api/v1")).getOrNull("serverRelativeURL")).value();
    assertThat(url).startsWith("/openapi/v3/api/v1?hash=");
    HttpResponse<String> core = get(url + "&timeout=32s");
    assertThat(core.statusCode()).isEqualTo(200);
    MapValue patch = (MapValue) ((MapValue) ((MapValue) json(core).getOrNull("paths"))
        .getOrNull("/api/v1/namespaces/{namespace}/configmaps/{name}")).getOrNull("patch");
    assertThat(Json.write(patch.getOrNull("x-kubernetes-group-version-kind")))
        .isEqualTo("{\"group\":\"\",\"kind\":\"ConfigMap\",\"version\":\"v1\"}");
    assertThat(Json.write(patch.getOrNull("parameters")))
        .contains("\"name\":\"fieldValidation\"");
    assertThat(core.headers().firstValue("Cache-Control")).hasValue("public, immutable");
    assertThat(get("/openapi/v3/apis/nothing/v1").statusCode()).isEqualTo(404);
    HttpResponse<String> old = get("/openapi/v3/api/v1?hash=0123");
    assertThat(old.statusCode()).isEqualTo(301);
    assertThat(old.headers().firstValue("Location")).hasValue(url);

    HttpResponse<byte[]> v2 = client.send(HttpRequest.newBuilder(base.resolve("/openapi/v2"))
        .header("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf").build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertThat(v2.statusCode()).isEqualTo(200);
    // field 1 (swagger) = "2.0"
    assertThat(v2.body()).startsWith(0x0a, 0x03, '2', '.', '0');
  }

  // ---- errors ------------------------------------------------------------------------------

  @Test
  void unknownPathsAre404LikeKube() throws Exception {
    HttpResponse<String> plain = get("/nothing/here");
    assertThat(plain.statusCode()).isEqualTo(404);
    assertThat(plain.body()).isEqualTo("404 page not found\n");
    assertThat(get("/apis/nogroup.example.com/v1/things").body())
        .isEqualTo("404 page not found\n");
    HttpResponse<String> resource = get("/api/v1/namespaces/default/nothings");
    assertThat(resource.statusCode()).isEqualTo(404);
    assertThat(resource.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"the server could not find the"
        + " requested resource\",\"reason\":\"NotFound\",\"details\":{},\"code\":404}\n");
    HttpResponse<String> object = get("/api/v1/namespaces/default/configmaps/absent");
    assertThat(object.statusCode()).isEqualTo(404);
    assertThat(object.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"configmaps \\\"absent\\\" not"
        + " found\",\"reason\":\"NotFound\",\"details\":{\"name\":\"absent\",\"kind\":"
        + "\"configmaps\"},\"code\":404}\n");
    // a namespaced kind has no named objects outside namespaces
    assertThat(get("/api/v1/configmaps/x").statusCode()).isEqualTo(404);
    assertThat(get("/api/v1/namespaces/default/configmaps/x/nosuchsub").statusCode())
        .isEqualTo(404);
  }

  @Test
  void unsupportedMethodsAre405() throws Exception {
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps/x",
        "application/json", configMap("x", ""));
    assertThat(r.statusCode()).isEqualTo(405);
    assertThat(r.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"the server does not allow this method on the"
        + " requested resource\",\"reason\":\"MethodNotAllowed\",\"details\":{},\"code\":405}\n");
    assertThat(send("PUT", "/api/v1/namespaces/default/configmaps", "application/json", "{}")
        .statusCode()).isEqualTo(405);
    assertThat(send("POST", "/api/v1/configmaps", "application/json", configMap("y", ""))
        .statusCode()).isEqualTo(405);
    assertThat(send("DELETE", "/apis/apps/v1/namespaces/default/deployments/x/scale", null,
        null).statusCode()).isEqualTo(405);
  }

  @Test
  void bodiesOver3MiBAre413() throws Exception {
    String big = configMap("big", ",\"data\":{\"k\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}");
    HttpResponse<String> r = send("POST", "/api/v1/namespaces/default/configmaps",
        "application/json", big);
    assertThat(r.statusCode()).isEqualTo(413);
    assertThat(r.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},"
        + "\"status\":\"Failure\",\"message\":\"Request entity too large: limit is 3145728\","
        + "\"reason\":\"RequestEntityTooLarge\",\"code\":413}\n");
    assertThat(get("/api/v1/namespaces/default/configmaps/big").statusCode()).isEqualTo(404);
  }

  @Test
  void unknownMediaTypesAre415() throws Exception {
    HttpResponse<String> post = send("POST", "/api/v1/namespaces/default/configmaps",
        "text/plain", configMap("t", ""));
    assertThat(post.statusCode()).isEqualTo(415);
    assertThat(json(post).getOrNull("message")).isEqualTo(Value.of("the body of the request"
        + " was in an unknown format - accepted media types include: application/json,"
        + " application/yaml, application/vnd.kubernetes.protobuf"));
    HttpResponse<String> patch = send("PATCH", "/api/v1/namespaces/default/configmaps/t",
        "application/json", "{}");
    assertThat(patch.statusCode()).isEqualTo(415);
    assertThat(json(patch).getOrNull("message")).isEqualTo(Value.of("the body of the request"
        + " was in an unknown format - accepted media types include:"
        + " application/json-patch+json, application/merge-patch+json,"
        + " application/strategic-merge-patch+json, application/apply-patch+yaml"));
    assertThat(json(patch).getOrNull("reason")).isEqualTo(Value.of("UnsupportedMediaType"));
  }

  @Test
  void builtInKindsAnswerInProtobufWhenAskedCustomResourcesDoNot() throws Exception {
    HttpResponse<String> only = get("/api/v1/namespaces/default/configmaps",
        "Accept", "application/vnd.kubernetes.protobuf");
    assertThat(only.statusCode()).isEqualTo(200);
    assertThat(only.headers().firstValue("Content-Type"))
        .hasValue("application/vnd.kubernetes.protobuf");
    assertThat(only.body()).startsWith("k8s\0");
    HttpResponse<String> json = get("/api/v1/namespaces/default/configmaps",
        "Accept", "application/json,application/vnd.kubernetes.protobuf");
    assertThat(json.headers().firstValue("Content-Type")).hasValue("application/json");
    HttpResponse<String> table = get("/api/v1/namespaces/default/configmaps", "Accept",
        "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io");
    assertThat(table.statusCode()).isEqualTo(406);
    assertThat(json(table).getOrNull("message")).isEqualTo(Value.of("only the following media"
        + " types are accepted: application/json, application/yaml,"
        + " application/vnd.kubernetes.protobuf"));
  }

  @Test
  void badTimeoutIs400AndSlowRequestsAre504() throws Exception {
    HttpResponse<String> bad = get("/api/v1/namespaces/default/configmaps?timeout=abc");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(json(bad).getOrNull("message")).isEqualTo(Value.of("invalid timeout specified in"
        + " the request URL - time: invalid duration \"abc\""));
    HttpResponse<String> slow = send("POST", "/api/v1/namespaces/default/configmaps?timeout=1s",
        "application/json", configMap("slow", ""));
    assertThat(slow.statusCode()).isEqualTo(504);
    assertThat(json(slow).getOrNull("reason")).isEqualTo(Value.of("Timeout"));
    assertThat(json(slow).getOrNull("message")).isEqualTo(Value.of("Timeout: request did not"
        + " complete within requested timeout - context deadline exceeded"));
    SlowPlugin.RELEASE.countDown();
  }

  // ---- content -----------------------------------------------------------------------------

  @Test
  void yamlInAndOut() throws Exception {
    HttpResponse<String> created = send("POST", "/api/v1/namespaces/default/configmaps",
        "application/yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml1\n"
            + "data:\n  quoted: 'yes'\n", "Accept", "application/yaml");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    assertThat(created.headers().firstValue("Content-Type")).hasValue("application/yaml");
    MapValue obj = (MapValue) Yaml.read(created.body());
    assertThat(((MapValue) obj.getOrNull("data")).getOrNull("quoted")).isEqualTo(Value.of("yes"));
  }

  @Test
  void tables() throws Exception {
    send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
        configMap("table1", ",\"data\":{\"a\":\"1\",\"b\":\"2\"}"));
    HttpResponse<String> r = get("/api/v1/namespaces/default/configmaps?limit=500",
        "Accept", TABLE_ACCEPT);
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("application/json;as=Table;v=v1;g=meta.k8s.io");
    MapValue table = json(r);
    assertThat(table.getOrNull("kind")).isEqualTo(Value.of("Table"));
    assertThat(r.body()).contains("{\"name\":\"Name\",\"type\":\"string\",\"format\":\"name\"")
        // kube declares the column a string although its cells are counts
        .contains("{\"name\":\"Data\",\"type\":\"string\"")
        .contains("\"cells\":[\"table1\",2,")
        .contains("\"object\":{\"kind\":\"PartialObjectMetadata\",\"apiVersion\":"
            + "\"meta.k8s.io/v1\",\"metadata\":{\"name\":\"table1\"");
    HttpResponse<String> one = get("/api/v1/namespaces/default/configmaps/table1"
        + "?includeObject=Object", "Accept", TABLE_ACCEPT);
    MapValue row = (MapValue) ((ListValue) json(one).getOrNull("rows")).get(0);
    assertThat(((MapValue) row.getOrNull("object")).getOrNull("kind"))
        .isEqualTo(Value.of("ConfigMap"));
    HttpResponse<String> bad = get("/api/v1/namespaces/default/configmaps?includeObject=Some",
        "Accept", TABLE_ACCEPT);
    assertThat(bad.statusCode()).isEqualTo(400);
  }

  @Test
  void fieldValidationWarnBecomesWarningHeader() throws Exception {
    HttpResponse<String> r = send("POST",
        "/api/v1/namespaces/default/configmaps?fieldValidation=Warn", "application/json",
        configMap("warned", ",\"foo\":\"bar\""));
    assertThat(r.statusCode()).isEqualTo(201);
    assertThat(r.headers().allValues("Warning")).containsExactly("299 - \"unknown field"
        + " \\\"foo\\\"\"");
  }

  @Test
  void deleteOptionsInTheBody() throws Exception {
    send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
        configMap("doomed", ""));
    HttpResponse<String> dry = send("DELETE", "/api/v1/namespaces/default/configmaps/doomed",
        "application/json", "{\"propagationPolicy\":\"Background\",\"dryRun\":[\"All\"]}");
    assertThat(dry.statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/default/configmaps/doomed").statusCode()).isEqualTo(200);
    HttpResponse<String> stale = send("DELETE", "/api/v1/namespaces/default/configmaps/doomed",
        "application/json", "{\"preconditions\":{\"resourceVersion\":\"1\"}}");
    assertThat(stale.statusCode()).isEqualTo(409);
    HttpResponse<String> real = send("DELETE", "/api/v1/namespaces/default/configmaps/doomed",
        "application/json", "{\"propagationPolicy\":\"Background\"}");
    assertThat(real.statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/default/configmaps/doomed").statusCode()).isEqualTo(404);
  }

  @Test
  void listsAcrossNamespacesAndDeleteCollection() throws Exception {
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"other\"}}");
    send("POST", "/api/v1/namespaces/other/configmaps", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c1\","
            + "\"labels\":{\"sel\":\"yes\"}}}");
    send("POST", "/api/v1/namespaces/other/configmaps", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c2\"}}");
    MapValue all = json(get("/api/v1/configmaps?labelSelector=sel%3Dyes"));
    assertThat(all.getOrNull("kind")).isEqualTo(Value.of("ConfigMapList"));
    assertThat(((ListValue) all.getOrNull("items")).size()).isEqualTo(1);
    HttpResponse<String> del = send("DELETE",
        "/api/v1/namespaces/other/configmaps?labelSelector=sel%3Dyes", null, null);
    assertThat(del.statusCode()).isEqualTo(200);
    assertThat(get("/api/v1/namespaces/other/configmaps/c1").statusCode()).isEqualTo(404);
    assertThat(get("/api/v1/namespaces/other/configmaps/c2").statusCode()).isEqualTo(200);
  }

  @Test
  void scaleSubresource() throws Exception {
    send("POST", "/apis/apps/v1/namespaces/default/deployments", "application/json",
        "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
            + "\"spec\":{\"replicas\":1,\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
            + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":"
            + "{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx\"}]}}}}");
    HttpResponse<String> scale = send("PATCH",
        "/apis/apps/v1/namespaces/default/deployments/web/scale",
        "application/merge-patch+json", "{\"spec\":{\"replicas\":3}}");
    assertThat(scale.statusCode()).isEqualTo(200);
    MapValue s = json(scale);
    assertThat(s.getOrNull("kind")).isEqualTo(Value.of("Scale"));
    assertThat(s.getOrNull("apiVersion")).isEqualTo(Value.of("autoscaling/v1"));
    assertThat(Json.write(s.getOrNull("spec"))).isEqualTo("{\"replicas\":3}");
    assertThat(Json.write(s.getOrNull("status"))).contains("\"selector\":\"app=web\"");
  }

  // ---- watch -------------------------------------------------------------------------------

  @Test
  void watchStreamsNewlineDelimitedEvents() throws Exception {
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"watched\"}}");
    send("POST", "/api/v1/namespaces/watched/configmaps", "application/json",
        configMap("before", ""));
    HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(base.resolve(
        "/api/v1/namespaces/watched/configmaps?watch=true&timeoutSeconds=5")).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(r.headers().firstValue("Content-Length")).isEmpty();
    BlockingQueue<String> lines = lines(r.body());
    MapValue first = (MapValue) Json.read(lines.poll(5, TimeUnit.SECONDS));
    assertThat(first.getOrNull("type")).isEqualTo(Value.of("ADDED"));
    assertThat(Json.write(first.getOrNull("object"))).contains("\"name\":\"before\"")
        .contains("\"kind\":\"ConfigMap\"");
    send("POST", "/api/v1/namespaces/watched/configmaps", "application/json",
        configMap("after", ""));
    send("DELETE", "/api/v1/namespaces/watched/configmaps/before", null, null);
    MapValue added = (MapValue) Json.read(lines.poll(5, TimeUnit.SECONDS));
    assertThat(added.getOrNull("type")).isEqualTo(Value.of("ADDED"));
    assertThat(Json.write(added.getOrNull("object"))).contains("\"name\":\"after\"");
    MapValue deleted = (MapValue) Json.read(lines.poll(5, TimeUnit.SECONDS));
    assertThat(deleted.getOrNull("type")).isEqualTo(Value.of("DELETED"));
    // timeoutSeconds ends the stream
    assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(END);
  }

  @Test
  void tableWatchCarriesColumnsOnce() throws Exception {
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"tw\"}}");
    send("POST", "/api/v1/namespaces/tw/configmaps", "application/json", configMap("a", ""));
    send("POST", "/api/v1/namespaces/tw/configmaps", "application/json", configMap("b", ""));
    HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(base.resolve(
        "/api/v1/namespaces/tw/configmaps?watch=true&resourceVersion=0&timeoutSeconds=3"))
        .header("Accept", TABLE_ACCEPT).build(), HttpResponse.BodyHandlers.ofInputStream());
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValue("application/json;as=Table;v=v1;g=meta.k8s.io");
    BlockingQueue<String> lines = lines(r.body());
    String first = lines.poll(5, TimeUnit.SECONDS);
    String second = lines.poll(5, TimeUnit.SECONDS);
    assertThat(first).startsWith("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Table\"")
        .contains("\"columnDefinitions\":[{\"name\":\"Name\"");
    assertThat(second).contains("\"columnDefinitions\":null");
  }

  @Test
  void watchFromTooOldVersionIsOneErrorEvent() throws Exception {
    HttpResponse<String> r = get("/api/v1/namespaces/default/configmaps?watch=true"
        + "&resourceVersion=1&timeoutSeconds=2");
    assertThat(r.statusCode()).isEqualTo(200);
    // the in-memory store keeps history, so an old version replays rather than expiring; a
    // malformed one is refused before the stream starts, with the watch cache's unconverted
    // versioner error (500, see WireDetailsTest)
    HttpResponse<String> bad = get("/api/v1/namespaces/default/configmaps?watch=true"
        + "&resourceVersion=abc");
    assertThat(bad.statusCode()).isEqualTo(500);
  }

  static final String END = "<end>";

  static BlockingQueue<String> lines(InputStream in) {
    BlockingQueue<String> q = new LinkedBlockingQueue<>();
    Thread t = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in,
          StandardCharsets.UTF_8))) {
        String l;
        while ((l = r.readLine()) != null) {
          q.add(l);
        }
      } catch (Exception e) {
        // stream closed
      }
      q.add(END);
    });
    t.setDaemon(true);
    t.start();
    return q;
  }

  @Test
  void watchOverWebSocket() throws Exception {
    send("POST", "/api/v1/namespaces", "application/json",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ws\"}}");
    send("POST", "/api/v1/namespaces/ws/configmaps", "application/json", configMap("one", ""));
    BlockingQueue<String> messages = new LinkedBlockingQueue<>();
    java.net.http.WebSocket ws = client.newWebSocketBuilder().buildAsync(
        URI.create("ws://127.0.0.1:" + base.getPort()
            + "/api/v1/namespaces/ws/configmaps?watch=true"),
        new java.net.http.WebSocket.Listener() {
          final StringBuilder text = new StringBuilder();

          @Override
          public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w,
              CharSequence data, boolean last) {
            text.append(data);
            if (last) {
              messages.add(text.toString());
              text.setLength(0);
            }
            w.request(1);
            return null;
          }

          @Override
          public java.util.concurrent.CompletionStage<?> onClose(java.net.http.WebSocket w,
              int status, String reason) {
            messages.add("closed " + status);
            return null;
          }
        }).get(10, TimeUnit.SECONDS);
    try {
      MapValue first = (MapValue) Json.read(messages.poll(10, TimeUnit.SECONDS));
      assertThat(first.getOrNull("type")).isEqualTo(Value.of("ADDED"));
      send("POST", "/api/v1/namespaces/ws/configmaps", "application/json", configMap("two", ""));
      MapValue second = (MapValue) Json.read(messages.poll(10, TimeUnit.SECONDS));
      assertThat(Json.write(second.getOrNull("object"))).contains("\"name\":\"two\"");
    } finally {
      ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "done");
    }
  }

  @Test
  void customResourcesComeAndGoInDiscoveryAndOpenApi() throws Exception {
    String crd = "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":"
        + "\"CustomResourceDefinition\",\"metadata\":{\"name\":\"gadgets.example.org\"},"
        + "\"spec\":{\"group\":\"example.org\",\"scope\":\"Namespaced\",\"names\":"
        + "{\"plural\":\"gadgets\",\"singular\":\"gadget\",\"kind\":\"Gadget\","
        + "\"shortNames\":[\"gd\"],\"categories\":[\"all\"]},\"versions\":[{\"name\":"
        + "\"v1\",\"served\":true,\"storage\":true,\"schema\":{\"openAPIV3Schema\":"
        + "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\","
        + "\"properties\":{\"size\":{\"type\":\"integer\"}}}}}},"
        + "\"subresources\":{\"status\":{}}}]}}";
    assertThat(get("/apis/example.org/v1").statusCode()).isEqualTo(404);
    HttpResponse<String> created = send("POST",
        "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", crd);
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);

    assertThat(get("/apis", "Accept", AGGREGATED_ACCEPT).body())
        .contains("{\"metadata\":{\"name\":\"example.org\",\"creationTimestamp\":null}")
        .contains("\"resource\":\"gadgets\"");
    String resources = get("/apis/example.org/v1").body();
    assertThat(resources).contains("{\"name\":\"gadgets\",\"singularName\":\"gadget\","
        + "\"namespaced\":true,\"kind\":\"Gadget\"").contains("\"shortNames\":[\"gd\"]")
        .contains("\"categories\":[\"all\"]").contains("\"name\":\"gadgets/status\"");
    assertThat(get("/openapi/v3").body()).contains("\"apis/example.org/v1\"");
    String doc = get("/openapi/v3/apis/example.org/v1").body();
    assertThat(doc).contains("\"org.example.v1.Gadget\"")
        .contains("\"/apis/example.org/v1/namespaces/{namespace}/gadgets/{name}\"");
    assertThat(send("POST", "/apis/example.org/v1/namespaces/default/gadgets",
        "application/json", "{\"apiVersion\":\"example.org/v1\",\"kind\":\"Gadget\","
            + "\"metadata\":{\"name\":\"g\"},\"spec\":{\"size\":1}}").statusCode())
        .isEqualTo(201);
    HttpResponse<String> smp = send("PATCH", "/apis/example.org/v1/namespaces/default/gadgets/g",
        "application/strategic-merge-patch+json", "{}");
    assertThat(smp.statusCode()).isEqualTo(415);
    assertThat(json(smp).getOrNull("message")).isEqualTo(Value.of("the body of the request was"
        + " in an unknown format - accepted media types include: application/json-patch+json,"
        + " application/merge-patch+json, application/apply-patch+yaml"));

    // CRD deletion can finish after the DELETE returns (the CRD's finalizer cleans up): wait
    // for the registry to stop serving the resource
    java.util.concurrent.CountDownLatch removed = new java.util.concurrent.CountDownLatch(1);
    io.apiserver4j.apiserver.RegistryListener listener = (change, def) -> {
      if (change == io.apiserver4j.apiserver.RegistryListener.Change.REMOVED
          && def.kind().group().equals("example.org")) {
        removed.countDown();
      }
    };
    api.registry().addListener(listener);
    try {
      assertThat(send("DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
          + "gadgets.example.org", null, null).statusCode()).isIn(200, 202);
      assertThat(removed.await(30, TimeUnit.SECONDS)).as("gadgets no longer served").isTrue();
    } finally {
      api.registry().removeListener(listener);
    }
    assertThat(get("/apis/example.org/v1").statusCode()).isEqualTo(404);
    assertThat(get("/apis").body()).doesNotContain("example.org");
    assertThat(get("/openapi/v3").body()).doesNotContain("example.org");
    assertThat(get("/apis/example.org/v1/namespaces/default/gadgets").body())
        .isEqualTo("404 page not found\n");
  }

  @Test
  void idleWatchesSurviveTheConnectionIdleTimeout() throws Exception {
    // the watch must see the test's ConfigMap first: no kube-root-ca.crt from the controller
    try (ApiServer other = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
        HttpApiServer quick = HttpApiServer.builder(other).idleTimeout(Duration.ofMillis(500))
            .build()) {
      quick.start();
      HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(quick.url().resolve(
          "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=3")).build(),
          HttpResponse.BodyHandlers.ofInputStream());
      BlockingQueue<String> lines = lines(r.body());
      // the watch must stay silent past Jetty's idle timeout: a connection opened after it and
      // left silent too is closed by that timeout, and then the watch has been idle longer
      try (java.net.Socket idle = new java.net.Socket(quick.url().getHost(),
          quick.url().getPort())) {
        idle.setSoTimeout(30_000);
        int read;
        try {
          read = idle.getInputStream().read();
        } catch (java.net.SocketTimeoutException e) {
          throw e;
        } catch (java.net.SocketException reset) {
          read = -1;
        }
        assertThat(read).as("closed by the idle timeout").isEqualTo(-1);
      }
      other.resources("v1", "configmaps").namespace("default").create(MapValue.ofEntries(
          "apiVersion", Value.of("v1"), "kind", Value.of("ConfigMap"),
          "metadata", MapValue.ofEntries("name", Value.of("late"))));
      String line = lines.poll(5, TimeUnit.SECONDS);
      assertThat(line).isNotNull().contains("\"name\":\"late\"");
    }
  }

  @Test
  void closeEndsWatchesAndFailsReadiness() throws Exception {
    // the watch must stay silent until the close: no kube-root-ca.crt from the controller
    ApiServer other = ApiServer.builder().disableAdmissionPlugins("ServiceAccount").build();
    HttpApiServer closing = HttpApiServer.builder(other).build();
    closing.start();
    URI url = closing.url();
    HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(closing.url().resolve(
        "/api/v1/namespaces/default/configmaps?watch=true")).build(),
        HttpResponse.BodyHandlers.ofInputStream());
    BlockingQueue<String> lines = lines(r.body());
    closing.close();
    assertThat(lines.poll(10, TimeUnit.SECONDS)).isEqualTo(END);
    other.close();
    assertThatThrownBy(() -> client.send(HttpRequest.newBuilder(url.resolve("/version")).build(),
        HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(java.io.IOException.class);
  }

  // ---- HTTP/2 ------------------------------------------------------------------------------

  @Test
  void http2WithPriorKnowledge() throws Exception {
    HTTP2Client h2 = new HTTP2Client();
    HttpClientTransport transport = new HttpClientTransportOverHTTP2(h2);
    org.eclipse.jetty.client.HttpClient jetty = new org.eclipse.jetty.client.HttpClient(
        transport);
    jetty.start();
    try {
      ContentResponse r = jetty.newRequest(base.resolve("/api/v1/namespaces/default/configmaps"))
          .timeout(10, TimeUnit.SECONDS).send();
      assertThat(r.getVersion()).isEqualTo(HttpVersion.HTTP_2);
      assertThat(r.getStatus()).isEqualTo(200);
      assertThat(((MapValue) Json.read(r.getContentAsString())).getOrNull("kind"))
          .isEqualTo(Value.of("ConfigMapList"));
    } finally {
      jetty.stop();
    }
  }

  @Test
  void http2ByUpgrade() throws Exception {
    HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
        .connectTimeout(Duration.ofSeconds(5)).build();
    HttpResponse<String> r = h2.send(HttpRequest.newBuilder(base.resolve("/version")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
  }
}
