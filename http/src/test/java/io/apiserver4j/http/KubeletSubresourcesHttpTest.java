/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.kubelet.PodLogs;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The subresources kube-apiserver hands to a kubelet or proxies, through the HTTP server: the
 * {@code pods/log} options and container checks with kube's Status errors, the log of the
 * installed {@link PodLogs} as {@code text/plain}, kube's 204 for an unbound Pod, and the errors
 * kube answers when the kubelet, the Pod or the Service's endpoint cannot be reached (kube's
 * {@code LogLocation}, {@code streamLocation}, {@code UpgradeAwareHandler} and
 * {@code ErrorToAPIStatus}).
 */
class KubeletSubresourcesHttpTest {
  private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
  private static final GroupVersionResource NODES = new GroupVersionResource("", "v1", "nodes");
  private static final String NS = "/api/v1/namespaces/default/pods/";
  static ApiServer api;
  static HttpApiServer http;
  static HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    // a user who may get pods/exec but not create it is refused the upgrade, as kube 1.35+
    http = HttpApiServer.builder(api).authorizer(a -> a.user().name().equals("reader")
        && a.verb().equals("create") && !a.subresource().isEmpty()
            ? new AuthorizationDecision.Deny("no create")
            : new AuthorizationDecision.Allow("")).build();
    http.start();
    create(NODES, "", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-1\"}}");
    // a Node's status is the kubelet's to write, through the status subresource
    MapValue node = api.handle(ApiRequest.builder(Verb.GET, NODES).name("node-1").build())
        .orThrow();
    api.handle(ApiRequest.builder(Verb.UPDATE, NODES).name("node-1").subresource("status")
        .body(node.with("status", Json.read("{\"addresses\":[{\"type\":\"InternalIP\","
            + "\"address\":\"172.18.0.2\"},{\"type\":\"Hostname\",\"address\":\"node-1\"}],"
            + "\"daemonEndpoints\":{\"kubeletEndpoint\":{\"Port\":10250}}}"))).build()).orThrow();
    pod("unbound", "", "{\"name\":\"c\",\"image\":\"nginx\"}");
    pod("bound", "node-1", "{\"name\":\"c\",\"image\":\"nginx\"}");
    pod("two", "node-1", "{\"name\":\"a\",\"image\":\"nginx\"},{\"name\":\"b\",\"image\":\"nginx\"}");
    pod("lost", "ghost", "{\"name\":\"c\",\"image\":\"nginx\"}");
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  private static void create(GroupVersionResource gvr, String ns, String body) {
    api.handle(ApiRequest.builder(Verb.CREATE, gvr).namespace(ns).body(Json.read(body)).build())
        .orThrow();
  }

  private static void pod(String name, String node, String containers) {
    create(PODS, "default", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\""
        + name + "\"},\"spec\":{" + (node.isEmpty() ? "" : "\"nodeName\":\"" + node + "\",")
        + "\"containers\":[" + containers + "]}}");
  }

  private static HttpResponse<String> get(String path) throws Exception {
    return HttpCalls.send(client, http.url(), "GET", path, null, null);
  }

  private static void assertStatus(HttpResponse<String> r, int code, String reason,
      String message) {
    assertThat(r.statusCode()).as(r.body()).isEqualTo(code);
    assertThat(r.headers().firstValue("Content-Type")).hasValue("application/json");
    MapValue status = (MapValue) Json.read(r.body());
    assertThat(Nested.str(status, "kind")).isEqualTo("Status");
    assertThat(Nested.str(status, "reason")).isEqualTo(reason);
    assertThat(Nested.str(status, "message")).isEqualTo(message);
  }

  @Test
  void theLogOfAnUnboundPodIsEmpty() throws Exception {
    HttpResponse<String> r = get(NS + "unbound/log");
    assertThat(r.statusCode()).isEqualTo(204);
    assertThat(r.body()).isEmpty();
  }

  @Test
  void theLogComesFromTheInstalledSourceAsPlainText() throws Exception {
    api.installPodLogs((pod, container, options) -> Optional.of(options.trim(
        Nested.str(pod, "metadata", "name") + "/" + container + " 1\nline 2\nline 3\n")));
    try {
      HttpResponse<String> r = get(NS + "bound/log");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Type")).hasValue("text/plain");
      assertThat(r.body()).isEqualTo("bound/c 1\nline 2\nline 3\n");
      assertThat(get(NS + "two/log?container=b&tailLines=2").body())
          .isEqualTo("line 2\nline 3\n");
      assertThat(get(NS + "two/log?container=b&limitBytes=4").body()).isEqualTo("two/");
    } finally {
      api.installPodLogs(PodLogs.NONE);
    }
  }

  @Test
  void withoutASourceTheKubeletIsUnreachable() throws Exception {
    assertStatus(get(NS + "bound/log?tailLines=5&timestamps=true"), 500, "",
        "Get \"https://node-1:10250/containerLogs/default/bound/c?tailLines=5&timestamps=true\":"
            + " dial tcp 172.18.0.2:10250: connect: connection refused");
    assertStatus(get(NS + "lost/log"), 404, "NotFound", "nodes \"ghost\" not found");
  }

  @Test
  void logOptionsAndContainersAreCheckedAsKubeChecksThem() throws Exception {
    assertStatus(get(NS + "two/log"), 400, "BadRequest",
        "a container name must be specified for pod two, choose one of: [a b]");
    assertStatus(get(NS + "two/log?container=x"), 400, "BadRequest",
        "container x is not valid for pod two");
    assertStatus(get(NS + "bound/log?tailLines=-1"), 422, "Invalid",
        "PodLogOptions \"bound\" is invalid: tailLines: Invalid value: -1: must be greater than"
            + " or equal to 0");
    assertStatus(get(NS + "bound/log?limitBytes=0"), 422, "Invalid",
        "PodLogOptions \"bound\" is invalid: limitBytes: Invalid value: 0: must be greater than 0");
    assertStatus(get(NS + "bound/log?sinceSeconds=5&sinceTime=2026-01-01T00:00:00Z"), 422,
        "Invalid", "PodLogOptions \"bound\" is invalid: : Forbidden: at most one of `sinceTime`"
            + " or `sinceSeconds` may be specified");
    assertStatus(get(NS + "bound/log?tailLines=x"), 400, "BadRequest",
        "strconv.ParseInt: parsing \"x\": invalid syntax");
    assertStatus(get(NS + "missing/log"), 404, "NotFound", "pods \"missing\" not found");
    assertStatus(HttpCalls.send(client, http.url(), "POST", NS + "bound/log", null, ""), 405,
        "MethodNotAllowed", "the server does not allow this method on the requested resource");
  }

  @Test
  void execAttachAndPortForwardNeedAHostAndAnUpgrade() throws Exception {
    for (String sub : new String[] {"exec", "attach", "portforward"}) {
      assertStatus(get(NS + "unbound/" + sub + "?command=ls&stdout=1"), 400, "BadRequest",
          "pod unbound does not have a host assigned");
      assertStatus(get(NS + "bound/" + sub + "?command=ls&stdout=1"), 400, "BadRequest",
          "Upgrade request required");
    }
    assertStatus(get(NS + "two/exec?command=ls"), 400, "BadRequest",
        "a container name must be specified for pod two, choose one of: [a b]");
    assertStatus(get(NS + "two/attach?container=x"), 400, "BadRequest",
        "container x is not valid for pod two");
    assertStatus(HttpCalls.send(client, http.url(), "DELETE", NS + "bound/exec", null, null),
        405, "MethodNotAllowed",
        "the server does not allow this method on the requested resource");
  }

  @Test
  void anUpgradeToAnUnreachableKubeletFailsToDialTheBackend() throws Exception {
    String[] r = raw("POST", NS + "bound/exec?command=ls&stdout=1", "");
    assertThat(r[0]).startsWith("HTTP/1.1 500");
    MapValue status = (MapValue) Json.read(r[1]);
    assertThat(Nested.str(status, "reason")).isEmpty();
    assertThat(Nested.str(status, "message")).isEqualTo(
        "error dialing backend: dial tcp 172.18.0.2:10250: connect: connection refused");
  }

  @Test
  void aWebSocketExecNeedsCreateAsWellAsGet() throws Exception {
    String[] r = raw("GET", NS + "bound/exec?command=ls&stdout=1", "Impersonate-User: reader\r\n");
    assertThat(r[0]).startsWith("HTTP/1.1 403");
    MapValue status = (MapValue) Json.read(r[1]);
    assertThat(Nested.str(status, "message")).isEqualTo("pods \"bound\" is forbidden: no create");
  }

  @Test
  void proxiesFailAsTheirTargetCannotBeReached() throws Exception {
    assertStatus(get("/api/v1/nodes/node-1/proxy/stats/summary"), 500, "",
        "dial tcp 172.18.0.2:10250: connect: connection refused");
    assertStatus(get("/api/v1/nodes/node-1:8080/proxy/"), 500, "",
        "dial tcp 172.18.0.2:8080: connect: connection refused");
    assertStatus(get("/api/v1/nodes/a:b:c:d/proxy/"), 400, "BadRequest",
        "invalid node request \"a:b:c:d\"");
    assertStatus(get("/api/v1/nodes/ghost/proxy/"), 404, "NotFound", "nodes \"ghost\" not found");
    assertStatus(get(NS + "bound/proxy/index.html"), 400, "BadRequest", "address not allowed");
    assertStatus(get("/api/v1/namespaces/default/services/none/proxy/"), 404, "NotFound",
        "endpoints \"none\" not found");
  }

  /** A request with {@code Connection: Upgrade}, which the JDK client may not send. */
  private static String[] raw(String method, String path, String headers) throws Exception {
    URI base = http.url();
    try (Socket s = new Socket(base.getHost(), base.getPort())) {
      OutputStream out = s.getOutputStream();
      out.write((method + " " + path + " HTTP/1.1\r\nHost: " + base.getHost() + "\r\n"
          + "Connection: Upgrade\r\nUpgrade: SPDY/3.1\r\n"
          + "X-Stream-Protocol-Version: v4.channel.k8s.io\r\n" + headers
          + "Content-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = s.getInputStream();
      String head = readHead(in);
      int length = 0;
      for (String line : head.split("\r\n")) {
        if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
          length = Integer.parseInt(line.substring(15).trim());
        }
      }
      return new String[] {head, new String(in.readNBytes(length), StandardCharsets.UTF_8)};
    }
  }

  private static String readHead(InputStream in) throws Exception {
    StringBuilder b = new StringBuilder();
    while (!b.toString().endsWith("\r\n\r\n")) {
      int c = in.read();
      if (c < 0) {
        break;
      }
      b.append((char) c);
    }
    return b.toString();
  }
}
