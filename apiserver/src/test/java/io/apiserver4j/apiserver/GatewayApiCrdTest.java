/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.at;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.apiserver.crd.CrdValidator;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Real-world CRDs (Gateway API v1.6.1, standard and experimental channel; Apache-2.0, see
 * NOTICE) load, and their objects are defaulted and validated as in a cluster: their schemas,
 * defaults and CEL rules (which use kube's ip library) are accepted, and invalid objects are
 * rejected with the CRD's own messages.
 */
class GatewayApiCrdTest {
  private static final GroupVersionResource GATEWAYS =
      new GroupVersionResource("gateway.networking.k8s.io", "v1", "gateways");
  private static final GroupVersionResource TLSROUTES =
      new GroupVersionResource("gateway.networking.k8s.io", "v1", "tlsroutes");

  private final Fixtures f = new Fixtures();

  static MapValue crd(String file) {
    try (InputStream in = GatewayApiCrdTest.class.getResourceAsStream("crd/gateway-api/" + file)) {
      return (MapValue) yaml(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"gateways.yaml", "tlsroutes.yaml", "httproutes-experimental.yaml"})
  void crdsAreValidAndServed(String file) {
    MapValue crd = crd(file);
    assertThat(CrdValidator.validateDefinition(crd)).isEmpty();
    ApiResponse r = f.create(CRDS, "", crd, "kubectl");
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
  }

  private static List<String> causes(ApiResponse r) {
    return r.failure().orElseThrow().causes().stream()
        .map(c -> c.field() + ": " + c.message()).toList();
  }

  @Test
  void gatewaysAreDefaultedAndValidated() {
    assertThat(f.create(CRDS, "", crd("gateways.yaml"), "kubectl").code()).isEqualTo(201);
    ApiResponse ok = f.create(GATEWAYS, "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: gw}
        spec:
          gatewayClassName: example
          listeners:
          - {name: http, protocol: HTTP, port: 80}
        """), "kubectl");
    assertThat(ok.code()).as("%s", ok.body()).isEqualTo(201);
    assertThat(at(ok.body(), "spec", "listeners")).isNotNull();
    MapValue listener = (MapValue) ((io.apiserver4j.core.ListValue)
        at(ok.body(), "spec", "listeners")).get(0);
    assertThat(at(listener, "allowedRoutes", "namespaces", "from")).isEqualTo(Value.of("Same"));

    ApiResponse tcpWithHostname = f.create(GATEWAYS, "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: gw2}
        spec:
          gatewayClassName: example
          listeners:
          - {name: tcp, protocol: TCP, port: 9000, hostname: example.com}
        """), "kubectl");
    assertThat(tcpWithHostname.code()).isEqualTo(422);
    assertThat(causes(tcpWithHostname)).contains("spec.listeners: Invalid value: "
        + "hostname must not be specified for protocols ['TCP', 'UDP']");

    ApiResponse badPort = f.create(GATEWAYS, "default", yaml("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: gw3}
        spec:
          gatewayClassName: example
          listeners:
          - {name: http, protocol: HTTP, port: 0}
        """), "kubectl");
    assertThat(causes(badPort)).contains("spec.listeners[0].port: Invalid value: 0: "
        + "spec.listeners[0].port in body should be greater than or equal to 1");
  }

  @Test
  void tlsRouteHostnamesMayNotBeIps() {
    assertThat(f.create(CRDS, "", crd("tlsroutes.yaml"), "kubectl").code()).isEqualTo(201);
    String route = """
        apiVersion: gateway.networking.k8s.io/v1
        kind: TLSRoute
        metadata: {name: r}
        spec:
          hostnames: [%s]
          rules:
          - backendRefs: [{name: svc, port: 443}]
        """;
    ApiResponse ip = f.create(TLSROUTES, "default", yaml(route.formatted("10.0.0.1")), "kubectl");
    assertThat(ip.code()).isEqualTo(422);
    assertThat(causes(ip)).containsExactly(
        "spec.hostnames: Invalid value: Hostnames cannot contain an IP");
    ApiResponse name = f.create(TLSROUTES, "default",
        yaml(route.formatted("example.com")), "kubectl");
    assertThat(name.code()).as("%s", name.body()).isEqualTo(201);
  }
}
