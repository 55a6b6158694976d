/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.AdmissionChain;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.http.HttpApiServer;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PodSecurity plugin in a server over HTTP, as a cluster behaves (kube's
 * test/integration/auth/podsecurity_test.go and the messages of pod-security-admission): a
 * namespace labelled {@code pod-security.kubernetes.io/enforce: restricted} refuses a violating
 * Pod with 403 and kube's message, a {@code warn} label gives a {@code Warning} header, a
 * Deployment gets a warning for its template, and tightening a namespace's enforce level warns
 * about its existing pods.
 */
class PodSecurityHttpTest {
  private static final String VIOLATING_POD = """
      {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "%s"},
       "spec": {"containers": [{"name": "x", "image": "nginx"}]}}""";

  static ApiServer api;
  static HttpApiServer http;
  static HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    AtomicReference<ApiServer> server = new AtomicReference<>();
    // the plugin reads namespaces and pods from the server it admits for, as kube's informers
    PodSecurityAdmission plugin = PodSecurityAdmission.create(
        PodSecurityConfiguration.defaults(),
        name -> server.get().resources("v1", "namespaces").find(name),
        namespace -> server.get().resources("v1", "pods").namespace(namespace).list(),
        Clock.systemUTC());
    api = ApiServer.builder().admission(AdmissionChain.builder().add(plugin).build()).build();
    server.set(api);
    http = HttpApiServer.builder(api).build();
    http.start();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<String> post(String path, String body) throws Exception {
    return client.send(HttpRequest.newBuilder(http.url().resolve(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static HttpResponse<String> put(String path, String body) throws Exception {
    return client.send(HttpRequest.newBuilder(http.url().resolve(path))
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static void namespace(String name, String labels) throws Exception {
    HttpResponse<String> r = post("/api/v1/namespaces", "{\"apiVersion\": \"v1\", \"kind\":"
        + " \"Namespace\", \"metadata\": {\"name\": \"" + name + "\", \"labels\": {" + labels
        + "}}}");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
  }

  /** kube's Warning header value: {@code 299 - "<text>"}. */
  static List<String> warnings(HttpResponse<String> r) {
    return r.headers().allValues("Warning");
  }

  @Test
  void enforceRestrictedRefusesAViolatingPodWithKubesMessage() throws Exception {
    namespace("enforced", "\"pod-security.kubernetes.io/enforce\": \"restricted\"");
    HttpResponse<String> r = post("/api/v1/namespaces/enforced/pods",
        VIOLATING_POD.formatted("p1"));
    assertThat(r.statusCode()).isEqualTo(403);
    MapValue status = (MapValue) Json.read(r.body());
    assertThat(Nested.str(status, "reason")).isEqualTo("Forbidden");
    assertThat(Nested.str(status, "message")).isEqualTo("pods \"p1\" is forbidden: violates"
        + " PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false (container \"x\""
        + " must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities"
        + " (container \"x\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot"
        + " != true (pod or container \"x\" must set securityContext.runAsNonRoot=true),"
        + " seccompProfile (pod or container \"x\" must set securityContext.seccompProfile.type"
        + " to \"RuntimeDefault\" or \"Localhost\")");
    assertThat(api.resources("v1", "pods").namespace("enforced").find("p1")).isEmpty();

    HttpResponse<String> ok = post("/api/v1/namespaces/enforced/pods", """
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p2"},
         "spec": {"securityContext": {"runAsNonRoot": true,
                                      "seccompProfile": {"type": "RuntimeDefault"}},
                  "containers": [{"name": "x", "image": "nginx", "securityContext": {
                    "allowPrivilegeEscalation": false, "capabilities": {"drop": ["ALL"]}}}]}}""");
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(201);
    assertThat(warnings(ok)).isEmpty();
  }

  @Test
  void warnLabelGivesAWarningHeader() throws Exception {
    namespace("warned", "\"pod-security.kubernetes.io/warn\": \"baseline\"");
    HttpResponse<String> r = post("/api/v1/namespaces/warned/pods", """
        {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1"},
         "spec": {"hostNetwork": true, "containers": [{"name": "x", "image": "nginx"}]}}""");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    assertThat(warnings(r)).containsExactly("299 - \"would violate PodSecurity"
        + " \\\"baseline:latest\\\": host namespaces (hostNetwork=true)\"");
  }

  @Test
  void deploymentGetsAWarningForItsTemplate() throws Exception {
    namespace("deployments", "\"pod-security.kubernetes.io/enforce\": \"restricted\"");
    HttpResponse<String> r = post("/apis/apps/v1/namespaces/deployments/deployments", """
        {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d1"},
         "spec": {"selector": {"matchLabels": {"app": "d1"}},
                  "template": {"metadata": {"labels": {"app": "d1"}},
                               "spec": {"containers": [{"name": "x", "image": "nginx",
                                 "securityContext": {"privileged": true}}]}}}}""");
    // workloads are never refused: enforce shows as the warn level it raises
    assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    assertThat(warnings(r)).containsExactly("299 - \"would violate PodSecurity"
        + " \\\"restricted:latest\\\": privileged (container \\\"x\\\" must not set"
        + " securityContext.privileged=true), allowPrivilegeEscalation != false (container"
        + " \\\"x\\\" must set securityContext.allowPrivilegeEscalation=false), unrestricted"
        + " capabilities (container \\\"x\\\" must set"
        + " securityContext.capabilities.drop=[\\\"ALL\\\"]), runAsNonRoot != true (pod or"
        + " container \\\"x\\\" must set securityContext.runAsNonRoot=true), seccompProfile (pod"
        + " or container \\\"x\\\" must set securityContext.seccompProfile.type to"
        + " \\\"RuntimeDefault\\\" or \\\"Localhost\\\")\"");
  }

  @Test
  void tighteningTheEnforceLevelWarnsAboutExistingPods() throws Exception {
    namespace("tightened", "");
    assertThat(post("/api/v1/namespaces/tightened/pods", VIOLATING_POD.formatted("a"))
        .statusCode()).isEqualTo(201);
    assertThat(post("/api/v1/namespaces/tightened/pods", VIOLATING_POD.formatted("b"))
        .statusCode()).isEqualTo(201);
    MapValue ns = api.resources("v1", "namespaces").get("tightened");
    String body = Json.write(Nested.set(ns, Json.read("{\"pod-security.kubernetes.io/enforce\":"
        + " \"baseline\", \"pod-security.kubernetes.io/enforce-version\": \"v1.30\"}"),
        "metadata", "labels"));
    HttpResponse<String> baseline = put("/api/v1/namespaces/tightened", body);
    assertThat(baseline.statusCode()).as(baseline.body()).isEqualTo(200);
    assertThat(warnings(baseline)).isEmpty();
    ns = api.resources("v1", "namespaces").get("tightened");
    body = Json.write(Nested.set(ns, Json.read("{\"pod-security.kubernetes.io/enforce\":"
        + " \"restricted\"}"), "metadata", "labels"));
    HttpResponse<String> r = put("/api/v1/namespaces/tightened", body);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(warnings(r)).containsExactly(
        "299 - \"existing pods in namespace \\\"tightened\\\" violate the new PodSecurity enforce"
            + " level \\\"restricted:latest\\\"\"",
        "299 - \"a (and 1 other pod): allowPrivilegeEscalation != false, unrestricted"
            + " capabilities, runAsNonRoot != true, seccompProfile\"");
  }

  @Test
  void invalidLabelsAreRefused() throws Exception {
    HttpResponse<String> r = post("/api/v1/namespaces", "{\"apiVersion\": \"v1\", \"kind\":"
        + " \"Namespace\", \"metadata\": {\"name\": \"invalid\", \"labels\":"
        + " {\"pod-security.kubernetes.io/enforce\": \"unknown\"}}}");
    assertThat(r.statusCode()).isEqualTo(422);
    assertThat(Nested.str((MapValue) Json.read(r.body()), "message")).isEqualTo("Namespace"
        + " \"invalid\" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid"
        + " value: \"unknown\": must be one of privileged, baseline, restricted");
  }
}
