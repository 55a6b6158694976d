/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.metrics;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The resource metrics a test sets, in place of metrics-server: per Pod, each container's
 * current usage of {@code cpu} and {@code memory} (or any other resource name), as
 * {@code metrics.k8s.io/v1beta1} PodMetrics would report them. The horizontal pod autoscaler
 * reads them as kube's reads metrics-server: a usage stays what it was set to until it is set
 * again or removed, and each read reports it as a sample taken at the server clock's now over a
 * window of {@link #WINDOW} (metrics-server's default resolution), so a Pod that turned Ready
 * less than a window ago is not counted for CPU during its initialization period, as in kube.
 * A Pod without an entry, or with no container, has no metrics (kube's "missing" Pods).
 *
 * <pre>{@code
 * PodMetrics metrics = controllers.podMetrics();
 * metrics.setContainerUsage("default", "web-7d4b9c-x2f9k", "nginx", "200m", "64Mi");
 * }</pre>
 *
 * <p>Thread-safe.
 */
public final class PodMetrics {
  /** The window each reported sample covers. */
  public static final Duration WINDOW = Duration.ofSeconds(15);

  private record PodKey(String namespace, String name) {}

  /** Per Pod, per container (in the order set), per resource: the usage. */
  private final Map<PodKey, Map<String, Map<String, Quantity>>> pods = new ConcurrentHashMap<>();

  private PodMetrics() {}

  /** An empty set of metrics. */
  public static PodMetrics create() {
    return new PodMetrics();
  }

  /**
   * Sets the usage of {@code container} of Pod {@code namespace/pod}: {@code cpu} and
   * {@code memory} as Kubernetes quantities ({@code "250m"}, {@code "64Mi"}). The Pod's other
   * containers keep theirs.
   *
   * @throws IllegalArgumentException if a quantity does not parse or is negative
   */
  public PodMetrics setContainerUsage(String namespace, String pod, String container, String cpu,
      String memory) {
    return setContainerUsage(namespace, pod, container, Map.of("cpu", cpu, "memory", memory));
  }

  /**
   * Sets the usage of {@code container} of Pod {@code namespace/pod}, by resource name, as
   * Kubernetes quantities; a resource left out has no metric (kube then counts the Pod as
   * missing for that resource).
   *
   * @throws IllegalArgumentException if a quantity does not parse or is negative
   */
  public PodMetrics setContainerUsage(String namespace, String pod, String container,
      Map<String, String> usage) {
    requireNonNull(namespace, "namespace");
    requireNonNull(pod, "pod");
    requireNonNull(container, "container");
    Map<String, Quantity> parsed = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : requireNonNull(usage, "usage").entrySet()) {
      Quantity q = Quantity.parse(requireNonNull(e.getValue(), e.getKey())).orElseThrow(() ->
          new IllegalArgumentException("the usage of " + e.getKey() + " is not a quantity: "
              + e.getValue()));
      if (q.isNegative()) {
        throw new IllegalArgumentException("the usage of " + e.getKey() + " is negative: "
            + e.getValue());
      }
      parsed.put(e.getKey(), q);
    }
    pods.compute(new PodKey(namespace, pod), (k, old) -> {
      Map<String, Map<String, Quantity>> next = old == null ? new LinkedHashMap<>()
          : new LinkedHashMap<>(old);
      next.put(container, Map.copyOf(parsed));
      return Collections.unmodifiableMap(next);
    });
    return this;
  }

  /** Removes every metric of Pod {@code namespace/pod}: it is then missing. */
  public PodMetrics remove(String namespace, String pod) {
    pods.remove(new PodKey(requireNonNull(namespace, "namespace"), requireNonNull(pod, "pod")));
    return this;
  }

  /** Removes every metric. */
  public PodMetrics clear() {
    pods.clear();
    return this;
  }

  /**
   * The metric of {@code resource} of Pod {@code namespace/pod} in milli-units (kube's
   * {@code MilliValue}, rounded up), summed over its containers, or only {@code container}'s
   * when that is not empty; as kube's metrics client reads PodMetrics: empty when the Pod has no
   * metrics, no container, or a container (the one asked for, or any when summing) lacks the
   * resource.
   */
  public Optional<Long> milliUsage(String namespace, String pod, String resource,
      String container) {
    Map<String, Map<String, Quantity>> containers = pods.get(new PodKey(namespace, pod));
    if (containers == null || containers.isEmpty()) {
      return Optional.empty();
    }
    long sum = 0;
    for (Map.Entry<String, Map<String, Quantity>> c : containers.entrySet()) {
      if (!container.isEmpty() && !c.getKey().equals(container)) {
        continue;
      }
      Quantity q = c.getValue().get(resource);
      if (q == null) {
        return Optional.empty();
      }
      long milli = q.value().movePointRight(3).setScale(0, java.math.RoundingMode.UP)
          .longValueExact();
      if (!container.isEmpty()) {
        return Optional.of(milli);
      }
      sum += milli;
    }
    return container.isEmpty() ? Optional.of(sum) : Optional.empty();
  }

  /**
   * Whether Pod {@code namespace/pod} has metrics (an entry with at least one container).
   */
  public boolean has(String namespace, String pod) {
    Map<String, Map<String, Quantity>> containers = pods.get(new PodKey(namespace, pod));
    return containers != null && !containers.isEmpty();
  }

  /**
   * Whether Pod {@code namespace/pod} has metrics that name {@code container}: kube's metrics
   * client fails a container metric when a listed Pod's metrics lack that container.
   */
  public boolean hasContainer(String namespace, String pod, String container) {
    Map<String, Map<String, Quantity>> containers = pods.get(new PodKey(namespace, pod));
    return containers != null && containers.containsKey(container);
  }
}
