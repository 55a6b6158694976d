/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.http.internal;

import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupResource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * kube-apiserver's request metrics ({@code k8s.io/apiserver/pkg/endpoints/metrics}) and storage
 * object counts, kept per HTTP server and written in the Prometheus text format (0.0.4), as
 * kube-apiserver's {@code /metrics} serves them: {@code apiserver_request_total},
 * {@code apiserver_request_duration_seconds} with kube's buckets, and
 * {@code apiserver_storage_objects} / {@code apiserver_resource_objects}.
 *
 * <p>Thread-safe; recording is lock-free.
 */
public final class RequestMetrics {
  /** kube's buckets of {@code apiserver_request_duration_seconds}, in seconds. */
  static final double[] DURATION_BUCKETS = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0,
      1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60};
  /** The media type of the Prometheus text format. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private static final List<String> DURATION_LABELS = List.of("verb", "dry_run", "group",
      "version", "resource", "subresource", "scope", "component");
  private static final List<String> TOTAL_LABELS = List.of("verb", "dry_run", "group",
      "version", "resource", "subresource", "scope", "component", "code");

  private final Map<List<String>, LongAdder> totals = new ConcurrentHashMap<>();
  private final Map<List<String>, Histogram> durations = new ConcurrentHashMap<>();

  /**
   * The labels of one instrumented request.
   *
   * @param verb the reported verb ({@link RequestVerbs#forMetrics})
   * @param scope {@code resource}, {@code namespace}, {@code cluster}, or empty for non-resource
   *     requests
   * @param component {@code apiserver} for resource requests; empty for the health endpoints
   */
  public record Labels(String verb, String dryRun, String group, String version, String resource,
      String subresource, String scope, String component) {
    List<String> values() {
      return List.of(verb, dryRun, group, version, resource, subresource, scope, component);
    }
  }

  private static final class Histogram {
    final LongAdder[] buckets = new LongAdder[DURATION_BUCKETS.length];
    final LongAdder count = new LongAdder();
    final DoubleAdder sum = new DoubleAdder();

    Histogram() {
      for (int i = 0; i < buckets.length; i++) {
        buckets[i] = new LongAdder();
      }
    }

    void observe(double seconds) {
      int i = Arrays.binarySearch(DURATION_BUCKETS, seconds);
      // the first bucket whose upper bound is at least the value (le is inclusive)
      int at = i >= 0 ? i : -i - 1;
      if (at < buckets.length) {
        buckets[at].increment();
      }
      count.increment();
      sum.add(seconds);
    }
  }

  /** Counts one finished request: its code, and its duration in the latency histogram. */
  public void record(Labels labels, int code, long elapsedNanos) {
    List<String> values = labels.values();
    List<String> withCode = new ArrayList<>(values.size() + 1);
    withCode.addAll(values);
    withCode.add(Integer.toString(code));
    totals.computeIfAbsent(List.copyOf(withCode), k -> new LongAdder()).increment();
    durations.computeIfAbsent(values, k -> new Histogram()).observe(elapsedNanos / 1e9);
  }

  /** The number of requests counted with exactly these labels and code (for tests). */
  long total(Labels labels, int code) {
    List<String> key = new ArrayList<>(labels.values());
    key.add(Integer.toString(code));
    LongAdder a = totals.get(key);
    return a == null ? 0 : a.sum();
  }

  /**
   * The exposition: the request metrics, then the object counts of {@code storedObjects} (by
   * resource; -1 where counting failed, as kube reports a failed count).
   */
  public String render(Map<GroupResource, Long> storedObjects) {
    StringBuilder sb = new StringBuilder(4096);
    header(sb, "apiserver_request_duration_seconds", "histogram", "[STABLE] Response latency"
        + " distribution in seconds for each verb, dry run value, group, version, resource,"
        + " subresource, scope and component.");
    for (Map.Entry<String, Map.Entry<List<String>, Histogram>> e
        : sorted(durations, DURATION_LABELS).entrySet()) {
      Histogram h = e.getValue().getValue();
      String labels = e.getKey();
      long cumulative = 0;
      for (int i = 0; i < DURATION_BUCKETS.length; i++) {
        cumulative += h.buckets[i].sum();
        sample(sb, "apiserver_request_duration_seconds_bucket",
            withLe(labels, GoStrings.formatFloatV(DURATION_BUCKETS[i])), cumulative);
      }
      long count = h.count.sum();
      sample(sb, "apiserver_request_duration_seconds_bucket", withLe(labels, "+Inf"), count);
      sb.append("apiserver_request_duration_seconds_sum").append(labels).append(' ')
          .append(GoStrings.formatFloatV(h.sum.sum())).append('\n');
      sample(sb, "apiserver_request_duration_seconds_count", labels, count);
    }
    header(sb, "apiserver_request_total", "counter", "[STABLE] Counter of apiserver requests"
        + " broken out for each verb, dry run value, group, version, resource, scope, component,"
        + " and HTTP response code.");
    for (Map.Entry<String, Map.Entry<List<String>, LongAdder>> e
        : sorted(totals, TOTAL_LABELS).entrySet()) {
      sample(sb, "apiserver_request_total", e.getKey(), e.getValue().getValue().sum());
    }
    Map<String, Long> byResource = new TreeMap<>();
    Map<String, Long> byGroupResource = new TreeMap<>();
    storedObjects.forEach((gr, n) -> {
      byResource.put(labels(List.of("resource"), List.of(groupResourceString(gr))), n);
      byGroupResource.put(labels(List.of("group", "resource"),
          List.of(gr.group(), gr.resource())), n);
    });
    header(sb, "apiserver_resource_objects", "gauge", "[ALPHA] Number of stored objects at the"
        + " time of last check split by kind. In case of a fetching error, the value will be -1.");
    byGroupResource.forEach((l, n) -> sample(sb, "apiserver_resource_objects", l, n));
    header(sb, "apiserver_storage_objects", "gauge", "[STABLE] (Deprecated since 1.34.0)"
        + " [DEPRECATED, consider using apiserver_resource_objects instead] Number of stored"
        + " objects at the time of last check split by kind. In case of a fetching error, the"
        + " value will be -1.");
    byResource.forEach((l, n) -> sample(sb, "apiserver_storage_objects", l, n));
    return sb.toString();
  }

  /**
   * component-base's {@code kubernetes_feature_enabled}: per gate available at the emulated
   * release (not PRE-ALPHA), its stage there and 1 when on, 0 when off.
   *
   * @param gates the server's feature gates
   * @return the metric family in the text exposition format
   */
  public static String featureInfo(io.apiserver4j.kubeapi.FeatureGates gates) {
    StringBuilder sb = new StringBuilder(8192);
    header(sb, "kubernetes_feature_enabled", "gauge", "[BETA] This metric records the data about"
        + " the stage and enablement of a k8s feature.");
    for (String gate : gates.known()) {
      io.apiserver4j.kubeapi.FeatureGates.Spec spec = gates.spec(gate);
      if (spec.stage() != io.apiserver4j.kubeapi.FeatureGates.Stage.PRE_ALPHA) {
        sample(sb, "kubernetes_feature_enabled", labels(List.of("name", "stage"),
            List.of(gate, spec.stage().label())), gates.enabled(gate) ? 1 : 0);
      }
    }
    return sb.toString();
  }

  /** kube's {@code GroupResource.String()}: {@code resource} or {@code resource.group}. */
  static String groupResourceString(GroupResource gr) {
    return gr.group().isEmpty() ? gr.resource() : gr.resource() + "." + gr.group();
  }

  private static void header(StringBuilder sb, String name, String type, String help) {
    sb.append("# HELP ").append(name).append(' ').append(help).append('\n')
        .append("# TYPE ").append(name).append(' ').append(type).append('\n');
  }

  private static void sample(StringBuilder sb, String name, String labels, long value) {
    sb.append(name).append(labels).append(' ').append(value).append('\n');
  }

  private static String withLe(String labels, String le) {
    // Prometheus' Go client writes a histogram's "le" after the sorted labels
    return labels.substring(0, labels.length() - 1) + ",le=\"" + le + "\"}";
  }

  /** The series by their label text, which orders them as Prometheus' Go client does. */
  private static <V> Map<String, Map.Entry<List<String>, V>> sorted(Map<List<String>, V> series,
      List<String> names) {
    Map<String, Map.Entry<List<String>, V>> out = new TreeMap<>();
    series.forEach((values, v) -> out.put(labels(names, values), Map.entry(values, v)));
    return out;
  }

  /** {@code {a="x",b="y"}} with the label names in alphabetical order, values escaped. */
  static String labels(List<String> names, List<String> values) {
    Map<String, String> byName = new TreeMap<>();
    for (int i = 0; i < names.size(); i++) {
      byName.put(names.get(i), values.get(i));
    }
    StringBuilder sb = new StringBuilder("{");
    byName.forEach((n, v) -> {
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append(n).append("=\"");
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        switch (c) {
          case '\\' -> sb.append("\\\\");
          case '"' -> sb.append("\\\"");
          case '\n' -> sb.append("\\n");
          default -> sb.append(c);
        }
      }
      sb.append('"');
    });
    return sb.append('}').toString();
  }
}
