/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.apiserver4j.core.GroupResource;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The exposition format and kube's metric definitions (k8s.io/apiserver endpoints/metrics). */
class RequestMetricsTest {
  private static final RequestMetrics.Labels LIST = new RequestMetrics.Labels("LIST", "", "",
      "v1", "pods", "", "namespace", "apiserver");

  @Test
  void aHistogramHasKubesBucketsCumulativeWithInclusiveUpperBounds() {
    RequestMetrics m = new RequestMetrics();
    m.record(LIST, 200, 5_000_000);      // exactly 0.005 s: in the first bucket
    m.record(LIST, 200, 300_000_000);    // 0.3 s
    m.record(LIST, 500, 61_000_000_000L); // beyond the last bucket
    String text = m.render(Map.of());
    String labels = "component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"pods\","
        + "scope=\"namespace\",subresource=\"\",verb=\"LIST\",version=\"v1\"";
    assertThat(text).contains(
        "# HELP apiserver_request_duration_seconds [STABLE] Response latency distribution in"
            + " seconds for each verb, dry run value, group, version, resource, subresource,"
            + " scope and component.\n"
            + "# TYPE apiserver_request_duration_seconds histogram\n"
            + "apiserver_request_duration_seconds_bucket{" + labels + ",le=\"0.005\"} 1\n"
            + "apiserver_request_duration_seconds_bucket{" + labels + ",le=\"0.025\"} 1\n");
    assertThat(text)
        .contains("apiserver_request_duration_seconds_bucket{" + labels + ",le=\"0.2\"} 1\n"
            + "apiserver_request_duration_seconds_bucket{" + labels + ",le=\"0.4\"} 2\n")
        .contains("apiserver_request_duration_seconds_bucket{" + labels + ",le=\"1\"} 2\n")
        .contains("apiserver_request_duration_seconds_bucket{" + labels + ",le=\"60\"} 2\n"
            + "apiserver_request_duration_seconds_bucket{" + labels + ",le=\"+Inf\"} 3\n"
            + "apiserver_request_duration_seconds_sum{" + labels + "} 61.305\n"
            + "apiserver_request_duration_seconds_count{" + labels + "} 3\n");
    assertThat(text.lines().filter(l -> l.startsWith("apiserver_request_duration_seconds_bucket")))
        .hasSize(RequestMetrics.DURATION_BUCKETS.length + 1);
    assertThat(text).contains("# TYPE apiserver_request_total counter\n")
        .contains("apiserver_request_total{code=\"200\",component=\"apiserver\",dry_run=\"\","
            + "group=\"\",resource=\"pods\",scope=\"namespace\",subresource=\"\",verb=\"LIST\","
            + "version=\"v1\"} 2\n")
        .contains("apiserver_request_total{code=\"500\",component=\"apiserver\"");
  }

  @Test
  void familiesComeInNameOrderAndObjectCountsUseKubesResourceNames() {
    Map<GroupResource, Long> counts = new LinkedHashMap<>();
    counts.put(new GroupResource("apps", "deployments"), 2L);
    counts.put(new GroupResource("", "configmaps"), 5L);
    counts.put(new GroupResource("", "secrets"), -1L);
    String text = new RequestMetrics().render(counts);
    assertThat(text).contains("apiserver_storage_objects{resource=\"configmaps\"} 5\n"
        + "apiserver_storage_objects{resource=\"deployments.apps\"} 2\n"
        + "apiserver_storage_objects{resource=\"secrets\"} -1\n");
    assertThat(text).contains(
        "apiserver_resource_objects{group=\"apps\",resource=\"deployments\"} 2\n");
    assertThat(text).contains("# HELP apiserver_storage_objects [STABLE] (Deprecated since"
        + " 1.34.0) [DEPRECATED, consider using apiserver_resource_objects instead] Number of"
        + " stored objects at the time of last check split by kind. In case of a fetching error,"
        + " the value will be -1.\n# TYPE apiserver_storage_objects gauge\n");
    assertThat(text.indexOf("# TYPE apiserver_request_duration_seconds"))
        .isLessThan(text.indexOf("# TYPE apiserver_request_total"));
    assertThat(text.indexOf("# TYPE apiserver_request_total"))
        .isLessThan(text.indexOf("# TYPE apiserver_resource_objects"));
    assertThat(text.indexOf("# TYPE apiserver_resource_objects"))
        .isLessThan(text.indexOf("# TYPE apiserver_storage_objects"));
  }

  @Test
  void labelValuesAreEscaped() {
    assertThat(RequestMetrics.labels(java.util.List.of("b", "a"),
        java.util.List.of("x\"y", "p\\q\nr"))).isEqualTo("{a=\"p\\\\q\\nr\",b=\"x\\\"y\"}");
  }
}
