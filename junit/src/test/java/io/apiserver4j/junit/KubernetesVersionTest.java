/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.kubeapi.KubeVersion;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** {@code @ApiServerTest(kubernetesVersion = "1.34")} serves Kubernetes 1.34's API. */
@ApiServerTest(kubernetesVersion = "1.34")
class KubernetesVersionTest {
  ApiServer api;
  HttpApiServer http;

  @Test
  void servesTheReleasesResources() {
    assertThat(api.kubernetesVersion()).isEqualTo(KubeVersion.V1_34);
    // 1.34 serves resource.k8s.io/v1, not 1.36's MutatingAdmissionPolicies
    assertThat(api.registry().find(new GroupVersionResource("resource.k8s.io", "v1",
        "resourceclaims"))).isPresent();
    assertThat(api.registry().find(new GroupVersionResource("admissionregistration.k8s.io",
        "v1", "mutatingadmissionpolicies"))).isEmpty();
  }

  @Test
  void versionReportsTheEmulation() throws Exception {
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        http.url().resolve("/version")).build(), HttpResponse.BodyHandlers.ofString());
    MapValue info = (MapValue) Json.read(r.body());
    assertThat(info.getOrNull("emulationMinor")).isEqualTo(Value.of("34"));
    assertThat(info.getOrNull("minCompatibilityMinor")).isEqualTo(Value.of("33"));
    assertThat(info.getOrNull("minor")).isEqualTo(Value.of("36"));
  }
}
