/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 1 over HTTP with real clients: values a built-in kind's Go types cannot hold are
 * rejected with kube's answers (the texts and their sources: apiserver's
 * {@code go-decoding.yaml}), for real and for server-side dry runs, and nothing is stored.
 */
class GoDecodingHttpTest {
  @TempDir
  static Path dir;
  static ApiServer api;
  static HttpApiServer http;
  static Kubectl kubectl;
  static HttpClient client;
  static URI base;

  static final String REPLICAS_ERROR = "Deployment in version \"v1\" cannot be handled as a"
      + " Deployment: json: cannot unmarshal number 1.5 into Go struct field"
      + " DeploymentSpec.spec.replicas of type int32";

  @BeforeAll
  static void start() {
    api = ApiServer.builder().build();
    http = HttpApiServer.builder(api).build();
    http.start();
    base = http.url();
    kubectl = new Kubectl(dir, http.kubeconfig().build());
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    http.close();
    api.close();
  }

  static String deployment(String name, String replicas) {
    return KubectlTest.deployment(name, 1, "nginx").replace("replicas: 1",
        "replicas: " + replicas);
  }

  @Test
  void kubectlCreateOfAFractionalReplicaCountIsABadRequest() {
    kubectl.file("fraction.yaml", deployment("fraction", "1.5"));
    for (String dryRun : new String[] {"--dry-run=server", "--dry-run=none"}) {
      Kubectl.Result r = kubectl.run("-n", "default", "create", dryRun, "-f", "fraction.yaml");
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
      // kubectl's AddSourceToErr and StandardErrorMessage around kube's 400
      assertThat(r.stderr()).isEqualTo("Error from server (BadRequest): error when creating"
          + " \"fraction.yaml\": " + REPLICAS_ERROR + "\n");
    }
    assertThat(kubectl.run("-n", "default", "get", "deployment", "fraction").exitCode())
        .isEqualTo(1);
  }

  @Test
  void kubectlServerSideApplyAndPatchesAreRejectedAsKubeRejectsThem() {
    kubectl.file("good.yaml", deployment("patched", "1"));
    kubectl.ok("-n", "default", "apply", "--server-side", "-f", "good.yaml");

    kubectl.file("bad.yaml", deployment("patched", "1.5"));
    Kubectl.Result apply = kubectl.run("-n", "default", "apply", "--server-side", "-f",
        "bad.yaml");
    assertThat(apply.exitCode()).as(apply.toString()).isEqualTo(1);
    assertThat(apply.stderr()).contains("failed to convert new object (default/patched;"
        + " apps/v1, Kind=Deployment) to proper version: unable to convert unstructured object"
        + " to apps/v1, Kind=Deployment: cannot convert float64 to int32");

    Kubectl.Result merge = kubectl.run("-n", "default", "patch", "deployment", "patched",
        "--type=merge", "-p", "{\"spec\":{\"replicas\":\"x\"}}");
    assertThat(merge.exitCode()).as(merge.toString()).isEqualTo(1);
    assertThat(merge.stderr()).contains("json: cannot unmarshal string into Go struct field"
        + " DeploymentSpec.spec.replicas of type int32");

    Kubectl.Result strategic = kubectl.run("-n", "default", "patch", "deployment", "patched",
        "-p", "{\"spec\":{\"strategy\":{\"rollingUpdate\":{\"maxSurge\":true}}}}");
    assertThat(strategic.exitCode()).as(strategic.toString()).isEqualTo(1);
    assertThat(strategic.stderr()).contains("Invalid value: \"map[spec:map[strategy:map["
        + "rollingUpdate:map[maxSurge:true]]]]\": json: cannot unmarshal bool into Go value of"
        + " type int32");

    assertThat(kubectl.ok("-n", "default", "get", "deployment", "patched", "-o",
        "jsonpath={.spec.replicas}")).isEqualTo("1");
  }

  @Test
  void anOverflowingNumberIsReportedForItsField() throws Exception {
    String body = "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"big\","
        + "\"deletionGracePeriodSeconds\":1e400},\"data\":{\"a\":\"aGk=\"}}";
    for (String query : new String[] {"?dryRun=All", ""}) {
      HttpResponse<String> r = client.send(HttpRequest.newBuilder(
              base.resolve("/api/v1/namespaces/default/secrets" + query))
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
      MapValue status = (MapValue) Json.read(r.body());
      assertThat(((StringValue) status.getOrNull("message")).value()).isEqualTo(
          "Secret in version \"v1\" cannot be handled as a Secret: json: cannot unmarshal"
              + " number 1e400 into Go struct field ObjectMeta.metadata.deletionGracePeriodSeconds"
              + " of type int64");
    }
    HttpResponse<String> get = client.send(HttpRequest.newBuilder(
        base.resolve("/api/v1/namespaces/default/secrets/big")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).isEqualTo(404);
  }
}
