/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@ApiServerTest
@WithManifests({"crds/*.yaml", "manifests/*.yaml"})
class ApiServerExtensionTest {
  static ApiServer staticApi;
  ApiServer api;
  HttpApiServer http;
  TestClock clock;
  TestKubeconfig kubeconfig;
  TestApiServer server;

  @BeforeAll
  static void staticFieldsAreInjectedBeforeBeforeAll(ApiServer parameter) {
    assertThat(staticApi).isNotNull().isSameAs(parameter);
  }

  @Test
  void fieldsAndParametersAreTheSameServer(ApiServer a, HttpApiServer h, TestApiServer s,
      TestClock c, TestKubeconfig k) {
    assertThat(api).isSameAs(a).isSameAs(s.api()).isSameAs(staticApi);
    assertThat(http).isSameAs(h).isSameAs(s.http());
    assertThat(clock).isSameAs(c).isSameAs(s.clock());
    assertThat(kubeconfig).isSameAs(k).isSameAs(s.kubeconfig());
    assertThat(server).isSameAs(s);
    assertThat(h.url().getHost()).isEqualTo("127.0.0.1");
    assertThat(h.port()).isPositive();
  }

  @Test
  void kubeconfigFileHoldsTheTextAndPointsAtTheServer() throws Exception {
    assertThat(Files.readString(kubeconfig.path())).isEqualTo(kubeconfig.yaml());
    assertThat(kubeconfig.yaml()).contains("server: " + http.url());
  }

  @Test
  void servesHttp() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(http.url() + "/api/v1/namespaces/team-a/configmaps/listed")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"b\":\"2\"");
  }

  @Test
  void hasKubeApiserversNamespaces() {
    assertThat(api.resources("v1", "namespaces").list())
        .extracting(n -> Nested.str(n, "metadata", "name"))
        .contains("default", "kube-system", "kube-public", "kube-node-lease", "team-a");
  }

  @Test
  void manifestsAreLoadedCrdsFirstWithDefaultNamespace() {
    MapValue widget = api.resources("example.com/v1", "widgets").namespace("team-a").get("w1");
    assertThat(Nested.integer(widget, "spec", "size")).isEqualTo(3);
    assertThat(Nested.str(api.resources("v1", "configmaps").namespace("default").get("settings"),
        "data", "a")).isEqualTo("1");
    assertThat(api.resources("example.com/v1", "gadgets").list()).isEmpty();
    ApiServerAssertions.assertThat(widget).field(".spec.size")
        .isOwnedBy(WithManifests.FIELD_MANAGER);
  }

  @Test
  void timestampsComeFromTheTestClockAndUidsAreSequential() {
    ResourceClient configMaps = api.resources("v1", "configmaps").namespace("default");
    MapValue settings = configMaps.get("settings");
    assertThat(Nested.str(settings, "metadata", "creationTimestamp"))
        .isEqualTo("2026-01-01T00:00:00Z");
    assertThat(Nested.str(settings, "metadata", "uid")).matches("00000000-0000-4000-8000-0+\\p{XDigit}+");

    clock.advance(Duration.ofHours(1));
    MapValue later = configMaps.create(MapValue.of(Map.of("metadata",
        MapValue.of(Map.of("generateName", Value.of("later-"))))));
    assertThat(Nested.str(later, "metadata", "creationTimestamp"))
        .isEqualTo("2026-01-01T01:00:00Z");
    assertThat(Nested.str(later, "metadata", "name")).startsWith("later-").hasSize(11);
  }
}
