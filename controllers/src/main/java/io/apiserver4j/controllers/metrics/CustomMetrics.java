/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.metrics;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.labels.LabelSelector;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The custom and external metrics a test sets, in place of a metrics adapter serving
 * {@code custom.metrics.k8s.io} and {@code external.metrics.k8s.io} (Prometheus Adapter, KEDA):
 * what the horizontal pod autoscaler's {@code Pods}, {@code Object} and {@code External} metrics
 * read. A manager given one ({@code ControllerManager.Builder#customMetrics}) has both APIs; a
 * manager without one has neither, and those metrics fail as in a cluster without an adapter.
 *
 * <ul>
 *   <li>{@link #setPodMetric}: a metric of one Pod ({@code Pods} metrics average it over the
 *       target's Pods);
 *   <li>{@link #setObjectMetric}: a metric describing one object ({@code Object} metrics), any
 *       kind, by its {@code apiVersion}'s group, kind and name;
 *   <li>{@link #setExternalMetric}: one series of an external metric in a namespace, with the
 *       labels an {@code External} metric's selector matches; the autoscaler sums the matching
 *       series.
 * </ul>
 *
 * <p>Values are Kubernetes quantities; a value stays until set again or removed. A metric's
 * {@code selector} ({@code metric.selector} of the autoscaler's metric) selects by labels given
 * when the value is set, as an adapter's {@code metricLabelSelector}. Thread-safe.
 */
public final class CustomMetrics {
  private record Labelled(Map<String, String> labels, Quantity value) {}

  private record PodKey(String namespace, String pod, String metric) {}

  private record ObjectKey(String namespace, String group, String kind, String name,
      String metric) {}

  private record ExternalKey(String namespace, String metric) {}

  private final Map<PodKey, Labelled> pods = new ConcurrentHashMap<>();
  private final Map<ObjectKey, Labelled> objects = new ConcurrentHashMap<>();
  private final Map<ExternalKey, List<Labelled>> external = new ConcurrentHashMap<>();

  private CustomMetrics() {}

  /** An empty set of metrics. */
  public static CustomMetrics create() {
    return new CustomMetrics();
  }

  /**
   * Sets metric {@code metric} of Pod {@code namespace/pod} to {@code value}.
   *
   * @throws IllegalArgumentException if {@code value} is not a quantity
   */
  public CustomMetrics setPodMetric(String namespace, String pod, String metric, String value) {
    return setPodMetric(namespace, pod, metric, value, Map.of());
  }

  /**
   * Sets metric {@code metric} of Pod {@code namespace/pod} to {@code value}, with the labels a
   * metric selector matches.
   *
   * @throws IllegalArgumentException if {@code value} is not a quantity
   */
  public CustomMetrics setPodMetric(String namespace, String pod, String metric, String value,
      Map<String, String> labels) {
    pods.put(new PodKey(requireNonNull(namespace, "namespace"), requireNonNull(pod, "pod"),
        requireNonNull(metric, "metric")), labelled(value, labels));
    return this;
  }

  /** Removes metric {@code metric} of Pod {@code namespace/pod}. */
  public CustomMetrics removePodMetric(String namespace, String pod, String metric) {
    pods.remove(new PodKey(namespace, pod, metric));
    return this;
  }

  /**
   * Sets metric {@code metric} of the object {@code kind} {@code name} of API version
   * {@code apiVersion} ({@code "apps/v1"}; only its group counts, as for the metrics API) in
   * {@code namespace} to {@code value}.
   *
   * @throws IllegalArgumentException if {@code value} is not a quantity
   */
  public CustomMetrics setObjectMetric(String namespace, String apiVersion, String kind,
      String name, String metric, String value) {
    return setObjectMetric(namespace, apiVersion, kind, name, metric, value, Map.of());
  }

  /**
   * As {@link #setObjectMetric(String, String, String, String, String, String)}, with the labels
   * a metric selector matches.
   *
   * @throws IllegalArgumentException if {@code value} is not a quantity
   */
  public CustomMetrics setObjectMetric(String namespace, String apiVersion, String kind,
      String name, String metric, String value, Map<String, String> labels) {
    objects.put(new ObjectKey(requireNonNull(namespace, "namespace"),
        group(requireNonNull(apiVersion, "apiVersion")), requireNonNull(kind, "kind"),
        requireNonNull(name, "name"), requireNonNull(metric, "metric")),
        labelled(value, labels));
    return this;
  }

  /** Removes a metric set with {@link #setObjectMetric}. */
  public CustomMetrics removeObjectMetric(String namespace, String apiVersion, String kind,
      String name, String metric) {
    objects.remove(new ObjectKey(namespace, group(apiVersion), kind, name, metric));
    return this;
  }

  /**
   * Sets the series of external metric {@code metric} in {@code namespace} labelled
   * {@code labels} to {@code value} (another series with other labels stays).
   *
   * @throws IllegalArgumentException if {@code value} is not a quantity
   */
  public CustomMetrics setExternalMetric(String namespace, String metric,
      Map<String, String> labels, String value) {
    Labelled series = labelled(value, labels);
    external.compute(new ExternalKey(requireNonNull(namespace, "namespace"),
        requireNonNull(metric, "metric")), (k, old) -> {
          List<Labelled> next = new ArrayList<>();
          if (old != null) {
            old.stream().filter(s -> !s.labels().equals(series.labels())).forEach(next::add);
          }
          next.add(series);
          return List.copyOf(next);
        });
    return this;
  }

  /** Removes every series of external metric {@code metric} in {@code namespace}. */
  public CustomMetrics removeExternalMetric(String namespace, String metric) {
    external.remove(new ExternalKey(namespace, metric));
    return this;
  }

  /** Removes every metric. */
  public CustomMetrics clear() {
    pods.clear();
    objects.clear();
    external.clear();
    return this;
  }

  /**
   * The value of metric {@code metric} of Pod {@code namespace/pod} in milli-units (kube's
   * {@code MilliValue}), if set with labels {@code selector} matches.
   */
  public Optional<Long> podMetric(String namespace, String pod, String metric,
      LabelSelector selector) {
    return Optional.ofNullable(pods.get(new PodKey(namespace, pod, metric)))
        .filter(v -> selector.matches(v.labels())).map(v -> milli(v.value()));
  }

  /**
   * The value of metric {@code metric} of an object in milli-units, if set with labels
   * {@code selector} matches.
   */
  public Optional<Long> objectMetric(String namespace, String apiVersion, String kind,
      String name, String metric, LabelSelector selector) {
    return Optional.ofNullable(objects.get(new ObjectKey(namespace, group(apiVersion), kind,
        name, metric))).filter(v -> selector.matches(v.labels())).map(v -> milli(v.value()));
  }

  /**
   * The values in milli-units of the series of external metric {@code metric} in
   * {@code namespace} whose labels {@code selector} matches, in the order set.
   */
  public List<Long> externalMetric(String namespace, String metric, LabelSelector selector) {
    List<Long> out = new ArrayList<>();
    for (Labelled s : external.getOrDefault(new ExternalKey(namespace, metric), List.of())) {
      if (selector.matches(s.labels())) {
        out.add(milli(s.value()));
      }
    }
    return out;
  }

  private static String group(String apiVersion) {
    int slash = apiVersion.indexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }

  private static Labelled labelled(String value, Map<String, String> labels) {
    Quantity q = Quantity.parse(requireNonNull(value, "value")).orElseThrow(() ->
        new IllegalArgumentException("the metric value is not a quantity: " + value));
    return new Labelled(Map.copyOf(requireNonNull(labels, "labels")), q);
  }

  private static long milli(Quantity q) {
    return q.value().movePointRight(3).setScale(0, RoundingMode.UP).longValue();
  }
}
