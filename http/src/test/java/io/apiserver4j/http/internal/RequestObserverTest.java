/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class RequestObserverTest {

  /** Go's time package tests of {@code Duration.String} (durationTests in time_test.go). */
  @ParameterizedTest
  @CsvSource({
      "0, 0s",
      "1, 1ns",
      "1100, 1.1µs",
      "2200000, 2.2ms",
      "3300000000, 3.3s",
      "245000000000, 4m5s",
      "245001000000, 4m5.001s",
      "18367001000000, 5h6m7.001s",
      "480000000001, 8m0.000000001s",
      "-1100, -1.1µs",
      "9223372036854775807, 2562047h47m16.854775807s"})
  void latencyIsWrittenAsGoWritesDurations(long nanos, String text) {
    assertThat(RequestObserver.goDuration(nanos)).isEqualTo(text);
  }

  /** kube's httplog line: klog's quoted message and key="value" pairs, resp unquoted. */
  @Test
  void theAccessLogLineHasKubesHttplogKeys() {
    assertThat(RequestObserver.line("LIST", "/api/v1/namespaces/default/pods?limit=500",
        1_520_000, "kubectl/v1.32.0 (linux/amd64) kubernetes/abc", null, "127.0.0.1:51234", 200))
        .isEqualTo("\"HTTP\" verb=\"LIST\" URI=\"/api/v1/namespaces/default/pods?limit=500\""
            + " latency=\"1.52ms\" userAgent=\"kubectl/v1.32.0 (linux/amd64) kubernetes/abc\""
            + " audit-ID=\"\" srcIP=\"127.0.0.1:51234\" resp=200");
    assertThat(RequestObserver.line("GET", "/a\"b", 1, "", "id", "[::1]:1", 404))
        .contains("URI=\"/a\\\"b\"").contains("audit-ID=\"id\"").endsWith("resp=404");
  }

  @Test
  void sourceAddressesAreJoinedAsGoJoinsThem() {
    assertThat(RequestObserver.hostPort("127.0.0.1", 80)).isEqualTo("127.0.0.1:80");
    assertThat(RequestObserver.hostPort("::1", 80)).isEqualTo("[::1]:80");
  }

  /** kube's CleanScope, CanonicalVerb and CleanVerb on the paths kubectl uses. */
  @ParameterizedTest
  @CsvSource({
      "GET, /api/v1/namespaces/default/pods, false, '', LIST",
      "GET, /api/v1/pods, false, '', LIST",
      "GET, /api/v1/namespaces/default/pods/p, false, '', GET",
      "HEAD, /api/v1/namespaces/default/pods/p, false, '', GET",
      "GET, /api/v1/namespaces/default/pods, true, '', WATCH",
      "GET, /api/v1/watch/namespaces/default/pods, false, '', WATCH",
      "POST, /api/v1/namespaces/default/pods, false, application/json, POST",
      "PUT, /api/v1/namespaces/default/pods/p, false, application/json, PUT",
      "PATCH, /api/v1/namespaces/default/pods/p, false, application/merge-patch+json, PATCH",
      "PATCH, /api/v1/namespaces/default/pods/p, false, application/apply-patch+yaml, APPLY",
      "DELETE, /api/v1/namespaces/default/pods, false, '', DELETE",
      "GET, /api/v1/namespaces/default/pods/p/log, false, '', CONNECT",
      "GET, /healthz, false, '', GET",
      "GET, /apis, false, '', GET"})
  void verbsAsKubeReportsThem(String method, String path, boolean watch, String contentType,
      String verb) {
    RequestInfo info = RequestInfo.parse(method, path, watch);
    assertThat(RequestVerbs.normalized(method, info, contentType)).isEqualTo(verb);
    assertThat(RequestVerbs.forMetrics(method, info, contentType)).isEqualTo(verb);
  }

  @Test
  void unknownMethodsCountAsOther() {
    RequestInfo info = RequestInfo.parse("OPTIONS", "/api/v1/pods", false);
    assertThat(RequestVerbs.normalized("OPTIONS", info, "")).isEqualTo("OPTIONS");
    assertThat(RequestVerbs.forMetrics("OPTIONS", info, "")).isEqualTo("other");
  }

  /** kube's cleanDryRun. */
  @Test
  void dryRunLabel() {
    assertThat(RequestVerbs.dryRun(java.util.List.of())).isEmpty();
    assertThat(RequestVerbs.dryRun(java.util.List.of("All"))).isEqualTo("All");
    assertThat(RequestVerbs.dryRun(java.util.List.of("All", "All"))).isEqualTo("All");
    assertThat(RequestVerbs.dryRun(java.util.List.of("all"))).isEqualTo("invalid");
    assertThat(RequestVerbs.dryRun(java.util.List.of(""))).isEqualTo("invalid");
  }
}
