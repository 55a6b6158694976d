/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static io.apiserver4j.apiserver.Fixtures.CRDS;
import static io.apiserver4j.apiserver.Fixtures.str;
import static io.apiserver4j.apiserver.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Real-world CRDs beside the Gateway API's: cert-manager's Certificate (cert-manager
 * v1.21.0-beta.0-212-g2d0d7f7f7) and the Prometheus operator's ServiceMonitor and PrometheusRule
 * (v0.93.0-24-g6adcebc50), read from ../shared/crds, load as in a cluster; their objects
 * are accepted or rejected with the messages kube's schema validation gives.
 */
class RealWorldCrdTest {
  private final Fixtures f = new Fixtures();

  private void install(String file) {
    MapValue crd = (MapValue) yaml(Fixtures.sharedCrd(file));
    ApiResponse r = f.create(CRDS, "", crd, "kubectl");
    assertThat(r.code()).as("%s", r.body()).isEqualTo(201);
  }

  private ApiResponse create(GroupVersionResource gvr, String object) {
    return f.create(gvr, "default", yaml(object), "test");
  }

  private static List<String> causes(ApiResponse r) {
    List<String> out = new ArrayList<>();
    for (Value c : Nested.list(r.body(), "details", "causes")) {
      out.add(Nested.str(c, "field") + ": " + Nested.str(c, "message"));
    }
    return out;
  }

  private static final GroupVersionResource CERTIFICATES =
      new GroupVersionResource("cert-manager.io", "v1", "certificates");

  @Test
  void certManagerCertificates() {
    install("cert-manager/cert-manager.io_certificates.yaml");

    ApiResponse ok = create(CERTIFICATES, """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata: {name: web}
        spec:
          secretName: web-tls
          dnsNames: [example.com]
          issuerRef: {name: ca, kind: ClusterIssuer}
          privateKey: {algorithm: ECDSA, size: 256}
          duration: 2160h
        """);
    assertThat(ok.code()).as("%s", ok.body()).isEqualTo(201);

    ApiResponse bad = create(CERTIFICATES, """
        apiVersion: cert-manager.io/v1
        kind: Certificate
        metadata: {name: bad}
        spec:
          dnsNames: [example.com]
          privateKey: {algorithm: DSA}
        """);
    assertThat(bad.code()).isEqualTo(422);
    assertThat(causes(bad)).containsExactlyInAnyOrder(
        "spec.privateKey.algorithm: Unsupported value: \"DSA\": supported values: \"RSA\","
            + " \"ECDSA\", \"Ed25519\"",
        "spec.issuerRef: Required value",
        "spec.secretName: Required value");
    assertThat(str(bad.body(), "message")).startsWith("Certificate.cert-manager.io \"bad\" is"
        + " invalid: [");
  }

  private static final GroupVersionResource SERVICEMONITORS =
      new GroupVersionResource("monitoring.coreos.com", "v1", "servicemonitors");

  @Test
  void prometheusOperatorServiceMonitors() {
    install("prometheus-operator/monitoring.coreos.com_servicemonitors.yaml");

    ApiResponse ok = create(SERVICEMONITORS, """
        apiVersion: monitoring.coreos.com/v1
        kind: ServiceMonitor
        metadata: {name: web}
        spec:
          selector: {matchLabels: {app: web}}
          endpoints: [{port: http, interval: 30s, path: /metrics}]
        """);
    assertThat(ok.code()).as("%s", ok.body()).isEqualTo(201);

    ApiResponse pattern = create(SERVICEMONITORS, """
        apiVersion: monitoring.coreos.com/v1
        kind: ServiceMonitor
        metadata: {name: bad}
        spec:
          selector: {}
          endpoints: [{port: http, interval: 30 seconds}]
        """);
    assertThat(pattern.code()).isEqualTo(422);
    assertThat(str(pattern.body(), "message")).isEqualTo("ServiceMonitor.monitoring.coreos.com"
        + " \"bad\" is invalid: spec.endpoints[0].interval: Invalid value: \"30 seconds\":"
        + " spec.endpoints[0].interval in body should match '^(0|(([0-9]+)y)?(([0-9]+)w)?"
        + "(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$'");

    ApiResponse missing = create(SERVICEMONITORS, """
        apiVersion: monitoring.coreos.com/v1
        kind: ServiceMonitor
        metadata: {name: bad}
        spec: {sampleLimit: -1, fallbackScrapeProtocol: Text}
        """);
    assertThat(causes(missing)).containsExactlyInAnyOrder(
        "spec.sampleLimit: Invalid value: -1: spec.sampleLimit in body should be greater than or"
            + " equal to 0",
        "spec.fallbackScrapeProtocol: Unsupported value: \"Text\": supported values:"
            + " \"PrometheusProto\", \"OpenMetricsText0.0.1\", \"OpenMetricsText1.0.0\","
            + " \"PrometheusText0.0.4\", \"PrometheusText1.0.0\"",
        "spec.endpoints: Required value",
        "spec.selector: Required value");
  }

  private static final GroupVersionResource PROMETHEUSRULES =
      new GroupVersionResource("monitoring.coreos.com", "v1", "prometheusrules");

  @Test
  void prometheusOperatorRules() {
    install("prometheus-operator/monitoring.coreos.com_prometheusrules.yaml");

    ApiResponse ok = create(PROMETHEUSRULES, """
        apiVersion: monitoring.coreos.com/v1
        kind: PrometheusRule
        metadata: {name: web}
        spec:
          groups:
          - name: web
            rules:
            - alert: Down
              expr: up == 0
              for: 5m
              labels: {severity: page}
        """);
    assertThat(ok.code()).as("%s", ok.body()).isEqualTo(201);
    assertThat(((ListValue) Nested.getOrNull(ok.body(), "spec", "groups")).size()).isEqualTo(1);

    ApiResponse duplicate = create(PROMETHEUSRULES, """
        apiVersion: monitoring.coreos.com/v1
        kind: PrometheusRule
        metadata: {name: bad}
        spec:
          groups:
          - {name: g, rules: [{record: a, expr: '1'}]}
          - {name: g, rules: [{record: b, expr: '2'}]}
        """);
    assertThat(duplicate.code()).isEqualTo(422);
    assertThat(str(duplicate.body(), "message")).isEqualTo("PrometheusRule.monitoring.coreos.com"
        + " \"bad\" is invalid: spec.groups[1]: Duplicate value: "
        + "{\"name\":\"g\"}");
  }
}
