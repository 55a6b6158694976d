/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.authz.Authenticators;
import io.apiserver4j.authz.AuthorizationDecision;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} as kube-apiserver serves it: request counts and latencies per installed
 * endpoint with kube's labels (k8s.io/apiserver endpoints/metrics and installer.go), stored
 * object counts, authorized as the non-resource URL it is.
 */
class MetricsTest {
  static ApiServer api;
  static HttpApiServer http;
  static final HttpClient client = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    // counts objects and requests of namespaces it never creates: no namespace plugins here
    api = ApiServer.builder().disableAdmissionPlugins("NamespaceLifecycle", "ServiceAccount")
        .build();
    // admin may do anything; viewer anything but the metrics
    http = HttpApiServer.builder(api)
        .authenticator(Authenticators.bearerTokens(Map.of(
            "admin-token", UserInfo.of("admin", "system:masters"),
            "viewer-token", UserInfo.of("viewer"))))
        .authorizer(a -> a.user().name().equals("viewer") && !a.resourceRequest()
            && a.path().equals("/metrics") ? AuthorizationDecision.deny("")
            : AuthorizationDecision.allow())
        .start();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static HttpResponse<String> send(String token, String method, String path, String contentType,
      String body) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(http.url() + path))
        .header("Authorization", "Bearer " + token)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    if (contentType != null) {
      r.header("Content-Type", contentType);
    }
    return client.send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  static String series(String verb, String dryRun, String resource, String scope, String code) {
    return "apiserver_request_total{code=\"" + code + "\",component=\"apiserver\",dry_run=\""
        + dryRun + "\",group=\"\",resource=\"" + resource + "\",scope=\"" + scope
        + "\",subresource=\"\",verb=\"" + verb + "\",version=\"v1\"} ";
  }

  /**
   * component-base's {@code kubernetes_feature_enabled} (metrics/prometheus/feature): every gate
   * available at the emulated release with its stage there (empty for GA), 1 when on.
   */
  @Test
  void featureGatesAreExposedAsKubeDoes() throws Exception {
    String body = send("admin-token", "GET", "/metrics", null, null).body();
    assertThat(body).contains("# HELP kubernetes_feature_enabled [BETA] This metric records the"
        + " data about the stage and enablement of a k8s feature.\n"
        + "# TYPE kubernetes_feature_enabled gauge\n")
        .contains("kubernetes_feature_enabled{name=\"AllAlpha\",stage=\"ALPHA\"} 0\n")
        .contains("kubernetes_feature_enabled{name=\"ConstrainedImpersonation\",stage=\"BETA\"}"
            + " 1\n")
        .contains("kubernetes_feature_enabled{name=\"DynamicResourceAllocation\",stage=\"\"} 1\n");
    try (ApiServer older = ApiServer.builder().emulatedVersion(
        io.apiserver4j.kubeapi.KubeVersion.V1_35).featureGates("PodLevelResources=false")
        .build(); HttpApiServer h = HttpApiServer.builder(older).start()) {
      String metrics = client.send(HttpRequest.newBuilder(URI.create(h.url() + "/metrics"))
          .build(), HttpResponse.BodyHandlers.ofString()).body();
      assertThat(metrics)
          .contains("kubernetes_feature_enabled{name=\"ConstrainedImpersonation\",stage=\"ALPHA\"}"
              + " 0\n")
          .contains("kubernetes_feature_enabled{name=\"PodLevelResources\",stage=\"BETA\"} 0\n")
          // not yet introduced at 1.35 (PRE-ALPHA): not exposed
          .doesNotContain("name=\"ShardedListAndWatch\"");
    }
  }

  @Test
  void requestsAreCountedWithKubesLabelsAndObjectsByResource() throws Exception {
    String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"m\"}}";
    String base = "/api/v1/namespaces/metrics/configmaps";
    assertThat(send("admin-token", "POST", base, "application/json", cm).statusCode())
        .isEqualTo(201);
    assertThat(send("admin-token", "GET", base, null, null).statusCode()).isEqualTo(200);
    assertThat(send("admin-token", "GET", base, null, null).statusCode()).isEqualTo(200);
    assertThat(send("admin-token", "GET", "/api/v1/configmaps", null, null).statusCode())
        .isEqualTo(200);
    assertThat(send("admin-token", "GET", base + "/missing", null, null).statusCode())
        .isEqualTo(404);
    assertThat(send("admin-token", "PATCH", base + "/m?fieldManager=t&dryRun=All",
        "application/apply-patch+yaml", cm).statusCode()).isEqualTo(200);
    assertThat(send("admin-token", "GET", "/healthz", null, null).statusCode()).isEqualTo(200);
    // no such resource: no installed endpoint, nothing counted
    assertThat(send("admin-token", "GET", "/api/v1/widgets", null, null).statusCode())
        .isEqualTo(404);

    HttpResponse<String> metrics = send("admin-token", "GET", "/metrics", null, null);
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    String text = metrics.body();
    assertThat(text)
        .contains(series("POST", "", "configmaps", "resource", "201") + "1\n")
        .contains(series("LIST", "", "configmaps", "namespace", "200") + "2\n")
        .contains(series("LIST", "", "configmaps", "cluster", "200") + "1\n")
        .contains(series("GET", "", "configmaps", "resource", "404") + "1\n")
        .contains(series("APPLY", "All", "configmaps", "resource", "200") + "1\n")
        .contains("apiserver_request_total{code=\"200\",component=\"\",dry_run=\"\",group=\"\","
            + "resource=\"\",scope=\"\",subresource=\"/healthz\",verb=\"GET\",version=\"\"} 1\n")
        .contains("apiserver_request_duration_seconds_count{component=\"apiserver\","
            + "dry_run=\"\",group=\"\",resource=\"configmaps\",scope=\"namespace\","
            + "subresource=\"\",verb=\"LIST\",version=\"v1\"} 2\n")
        .contains("apiserver_request_duration_seconds_bucket{component=\"apiserver\","
            + "dry_run=\"\",group=\"\",resource=\"configmaps\",scope=\"namespace\","
            + "subresource=\"\",verb=\"LIST\",version=\"v1\",le=\"+Inf\"} 2\n")
        // the test's ConfigMap and kube-system's extension-apiserver-authentication, which the
        // server writes at start as kube-apiserver does
        .contains("apiserver_storage_objects{resource=\"configmaps\"} 2\n")
        .contains("apiserver_storage_objects{resource=\"deployments.apps\"} 0\n")
        .contains("apiserver_resource_objects{group=\"\",resource=\"configmaps\"} 2\n")
        .doesNotContain("widgets")
        .doesNotContain("/metrics");
  }

  @Test
  void metricsAreANonResourceUrlUnderAuthorization() throws Exception {
    HttpResponse<String> denied = send("viewer-token", "GET", "/metrics", null, null);
    assertThat(denied.statusCode()).isEqualTo(403);
    assertThat(denied.body()).contains(
        "\"message\":\"forbidden: User \\\"viewer\\\" cannot get path \\\"/metrics\\\"\"");
    assertThat(send("nobody", "GET", "/metrics", null, null).statusCode()).isEqualTo(401);
  }
}
