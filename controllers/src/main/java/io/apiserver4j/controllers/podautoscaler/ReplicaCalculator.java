/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.podautoscaler;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.controllers.metrics.PodMetrics;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code ReplicaCalculator} (pkg/controller/podautoscaler/replica_calculator.go) for
 * resource metrics, with the metrics client's reading of PodMetrics
 * ({@code metrics/client.go}) and the ratios of {@code metrics/utilization.go}: a pure
 * function of the Pods, their metrics and the server clock's now. Failures are
 * {@link MetricException}s carrying kube's messages.
 */
final class ReplicaCalculator {
  /** kube-controller-manager's {@code --horizontal-pod-autoscaler-tolerance} default. */
  static final double DEFAULT_TOLERANCE = 0.1;
  /** {@code --horizontal-pod-autoscaler-cpu-initialization-period} default. */
  static final Duration CPU_INITIALIZATION_PERIOD = Duration.ofMinutes(5);
  /** {@code --horizontal-pod-autoscaler-initial-readiness-delay} default. */
  static final Duration INITIAL_READINESS_DELAY = Duration.ofSeconds(30);

  /** Go's zero {@code time.Time}: a condition without a transition time has it. */
  static final Instant ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");

  private final Duration cpuInitializationPeriod;
  private final Duration delayOfInitialReadinessStatus;

  ReplicaCalculator(Duration cpuInitializationPeriod, Duration delayOfInitialReadinessStatus) {
    this.cpuInitializationPeriod = cpuInitializationPeriod;
    this.delayOfInitialReadinessStatus = delayOfInitialReadinessStatus;
  }

  /** A failure to compute a metric, with kube's message. */
  static final class MetricException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MetricException(String message) {
      super(message);
    }
  }

  /** kube's {@code Tolerances}: the band around 1.0 within which nothing changes. */
  record Tolerances(double scaleDown, double scaleUp) {
    boolean isWithin(double usageRatio) {
      return 1.0 - scaleDown <= usageRatio && usageRatio <= 1.0 + scaleUp;
    }
  }

  /** One Pod's metric: kube's {@code PodMetric}, in milli-units. */
  record PodMetric(long value, Instant timestamp, Duration window) {}

  /** The outcome of a utilization target: replicas, utilization (percent) and raw average. */
  record UtilizationResult(int replicas, int utilization, long rawUtilization) {}

  /** The outcome of a value target: replicas and the average usage in milli-units. */
  record UsageResult(int replicas, long usage) {}

  /**
   * kube's {@code GetResourceMetric} against {@code metrics}: the metric of {@code resource}
   * (of {@code container} only, when not empty) of each of {@code pods} that has metrics,
   * sampled at {@code now} over {@link PodMetrics#WINDOW}.
   *
   * @throws MetricException with kube's messages when no listed Pod has metrics, or a Pod's
   *     metrics lack {@code container}
   */
  static Map<String, PodMetric> resourceMetrics(PodMetrics metrics, String namespace,
      List<MapValue> pods, String resource, String container, Instant now) {
    Map<String, PodMetric> out = new LinkedHashMap<>();
    boolean any = false;
    for (MapValue pod : pods) {
      String name = Meta.metaString(pod, "name");
      if (!metrics.has(namespace, name)) {
        continue;
      }
      any = true;
      if (!container.isEmpty() && !metrics.hasContainer(namespace, name, container)) {
        throw new MetricException("unable to get metrics for resource " + resource
            + ": failed to get container metrics: container " + container
            + " not present in metrics for pod " + namespace + "/" + name);
      }
      metrics.milliUsage(namespace, name, resource, container).ifPresent(v ->
          out.put(name, new PodMetric(v, now, PodMetrics.WINDOW)));
    }
    if (!any) {
      throw new MetricException("unable to get metrics for resource " + resource
          + ": no metrics returned from resource metrics API");
    }
    return out;
  }

  /** kube's {@code GetResourceReplicas}: a utilization (percent of request) target. */
  UtilizationResult resourceReplicas(int currentReplicas, int targetUtilization,
      String resource, Tolerances tolerances, List<MapValue> pods,
      Map<String, PodMetric> fetched, String container, Instant now) {
    if (pods.isEmpty()) {
      throw new MetricException("no pods returned by selector while calculating replica count");
    }
    Map<String, PodMetric> metrics = new HashMap<>(fetched);
    Groups g = groupPods(pods, metrics, resource, now);
    metrics.keySet().removeAll(g.ignored);
    metrics.keySet().removeAll(g.unready);
    if (metrics.isEmpty()) {
      throw new MetricException(
          "did not receive metrics for targeted pods (pods might be unready)");
    }
    Map<String, Long> requests = calculateRequests(pods, container, resource);
    Ratio r = utilizationRatio(metrics, requests, targetUtilization);
    boolean scaleUpWithUnready = !g.unready.isEmpty() && r.ratio > 1.0;
    if (!scaleUpWithUnready && g.missing.isEmpty()) {
      if (tolerances.isWithin(r.ratio)) {
        return new UtilizationResult(currentReplicas, r.utilization, r.raw);
      }
      return new UtilizationResult((int) Math.ceil(r.ratio * g.readyPodCount), r.utilization,
          r.raw);
    }
    if (!g.missing.isEmpty()) {
      if (r.ratio < 1.0) {
        // a missing Pod counts as using its whole request, or the target when that is higher
        long fallback = Math.max(100, targetUtilization);
        for (String pod : g.missing) {
          metrics.put(pod, new PodMetric(requests.getOrDefault(pod, 0L) * fallback / 100,
              Instant.EPOCH, Duration.ZERO));
        }
      } else if (r.ratio > 1.0) {
        for (String pod : g.missing) {
          metrics.put(pod, new PodMetric(0, Instant.EPOCH, Duration.ZERO));
        }
      }
    }
    if (scaleUpWithUnready) {
      for (String pod : g.unready) {
        metrics.put(pod, new PodMetric(0, Instant.EPOCH, Duration.ZERO));
      }
    }
    double newRatio = utilizationRatio(metrics, requests, targetUtilization).ratio;
    if (tolerances.isWithin(newRatio) || (r.ratio < 1.0 && newRatio > 1.0)
        || (r.ratio > 1.0 && newRatio < 1.0)) {
      return new UtilizationResult(currentReplicas, r.utilization, r.raw);
    }
    int newReplicas = (int) Math.ceil(newRatio * metrics.size());
    if ((newRatio < 1.0 && newReplicas > currentReplicas)
        || (newRatio > 1.0 && newReplicas < currentReplicas)) {
      return new UtilizationResult(currentReplicas, r.utilization, r.raw);
    }
    return new UtilizationResult(newReplicas, r.utilization, r.raw);
  }

  /** kube's {@code GetRawResourceReplicas} ({@code calcPlainMetricReplicas}): an average value. */
  UsageResult rawResourceReplicas(int currentReplicas, long targetUsage, String resource,
      Tolerances tolerances, List<MapValue> pods, Map<String, PodMetric> fetched, Instant now) {
    if (pods.isEmpty()) {
      throw new MetricException("no pods returned by selector while calculating replica count");
    }
    Map<String, PodMetric> metrics = new HashMap<>(fetched);
    Groups g = groupPods(pods, metrics, resource, now);
    metrics.keySet().removeAll(g.ignored);
    metrics.keySet().removeAll(g.unready);
    if (metrics.isEmpty()) {
      throw new MetricException(
          "did not receive metrics for targeted pods (pods might be unready)");
    }
    double ratio = usageRatio(metrics, targetUsage);
    long usage = average(metrics);
    boolean scaleUpWithUnready = !g.unready.isEmpty() && ratio > 1.0;
    if (!scaleUpWithUnready && g.missing.isEmpty()) {
      if (tolerances.isWithin(ratio)) {
        return new UsageResult(currentReplicas, usage);
      }
      return new UsageResult((int) Math.ceil(ratio * g.readyPodCount), usage);
    }
    if (!g.missing.isEmpty()) {
      if (ratio < 1.0) {
        for (String pod : g.missing) {
          metrics.put(pod, new PodMetric(targetUsage, Instant.EPOCH, Duration.ZERO));
        }
      } else if (ratio > 1.0) {
        for (String pod : g.missing) {
          metrics.put(pod, new PodMetric(0, Instant.EPOCH, Duration.ZERO));
        }
      }
    }
    if (scaleUpWithUnready) {
      for (String pod : g.unready) {
        metrics.put(pod, new PodMetric(0, Instant.EPOCH, Duration.ZERO));
      }
    }
    double newRatio = usageRatio(metrics, targetUsage);
    if (tolerances.isWithin(newRatio) || (ratio < 1.0 && newRatio > 1.0)
        || (ratio > 1.0 && newRatio < 1.0)) {
      return new UsageResult(currentReplicas, usage);
    }
    int newReplicas = (int) Math.ceil(newRatio * metrics.size());
    if ((newRatio < 1.0 && newReplicas > currentReplicas)
        || (newRatio > 1.0 && newReplicas < currentReplicas)) {
      return new UsageResult(currentReplicas, usage);
    }
    return new UsageResult(newReplicas, usage);
  }

  /** kube's {@code groupPods} result. */
  private static final class Groups {
    int readyPodCount;
    final Set<String> unready = new LinkedHashSet<>();
    final Set<String> missing = new LinkedHashSet<>();
    final Set<String> ignored = new LinkedHashSet<>();
  }

  /** kube's {@code groupPods}, on the server clock's {@code now}. */
  private Groups groupPods(List<MapValue> pods, Map<String, PodMetric> metrics, String resource,
      Instant now) {
    Groups g = new Groups();
    for (MapValue pod : pods) {
      String name = Meta.metaString(pod, "name");
      String phase = Nested.str(pod, "status", "phase");
      if (Nested.has(pod, "metadata", "deletionTimestamp") || phase.equals("Failed")) {
        g.ignored.add(name);
        continue;
      }
      if (phase.equals("Pending")) {
        g.unready.add(name);
        continue;
      }
      PodMetric metric = metrics.get(name);
      if (metric == null) {
        g.missing.add(name);
        continue;
      }
      if (resource.equals("cpu")) {
        Optional<MapValue> ready = readyCondition(pod);
        Optional<Instant> start = Pods.time(pod, "status", "startTime");
        boolean unready;
        if (ready.isEmpty() || start.isEmpty()) {
          unready = true;
        } else {
          String status = Nested.str(ready.get(), "status");
          Instant transition = Pods.time(ready.get(), "lastTransitionTime").orElse(ZERO_TIME);
          if (start.get().plus(cpuInitializationPeriod).isAfter(now)) {
            // still initializing: ignore a sample not taken a whole window after the transition
            unready = status.equals("False")
                || metric.timestamp().isBefore(transition.plus(metric.window()));
          } else {
            // ignore a Pod that has never been ready
            unready = status.equals("False")
                && start.get().plus(delayOfInitialReadinessStatus).isAfter(transition);
          }
        }
        if (unready) {
          g.unready.add(name);
          continue;
        }
      }
      g.readyPodCount++;
    }
    return g;
  }

  private static Optional<MapValue> readyCondition(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (c instanceof MapValue m && Nested.str(m, "type").equals("Ready")) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * kube's {@code calculateRequests}: per Pod, the request of {@code container}, else the
   * Pod-level request when the Pod sets one, else the sum over its containers and restartable
   * init containers.
   */
  static Map<String, Long> calculateRequests(List<MapValue> pods, String container,
      String resource) {
    Map<String, Long> out = new HashMap<>();
    for (MapValue pod : pods) {
      String name = Meta.metaString(pod, "name");
      Value podLevel = Nested.getOrNull(pod, "spec", "resources", "requests", resource);
      if (container.isEmpty() && podLevel != null
          && !Nested.map(pod, "spec", "resources", "requests").isEmpty()) {
        out.put(name, milli(podLevel));
        continue;
      }
      out.put(name, containerRequests(pod, name, container, resource));
    }
    return out;
  }

  private static long containerRequests(MapValue pod, String podName, String container,
      String resource) {
    List<Value> containers = new java.util.ArrayList<>(Nested.list(pod, "spec", "containers"));
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        containers.add(c);
      }
    }
    long request = 0;
    for (Value c : containers) {
      String name = Nested.str(c, "name");
      if (container.isEmpty() || container.equals(name)) {
        Value q = Nested.getOrNull(c, "resources", "requests", resource);
        if (q == null) {
          throw new MetricException("missing request for " + resource + " in container " + name
              + " of Pod " + podName);
        }
        request += milli(q);
      }
      if (container.equals(name)) {
        return request;
      }
    }
    if (!container.isEmpty()) {
      throw new MetricException("container " + container + " not found in Pod " + podName);
    }
    return request;
  }

  /** A quantity's {@code MilliValue} (rounded up); 0 when it is not one. */
  static long milli(Value v) {
    String text = switch (v.kind()) {
      case STRING -> Nested.str(v);
      case INTEGER -> Long.toString(Nested.integer(v));
      case FLOAT -> v.toString();
      default -> "";
    };
    return Quantity.parse(text).map(q -> q.value().movePointRight(3)
        .setScale(0, RoundingMode.UP).longValue()).orElse(0L);
  }

  private record Ratio(double ratio, int utilization, long raw) {}

  /** kube's {@code GetResourceUtilizationRatio}. */
  private static Ratio utilizationRatio(Map<String, PodMetric> metrics, Map<String, Long> requests,
      int targetUtilization) {
    long metricsTotal = 0;
    long requestsTotal = 0;
    int entries = 0;
    for (Map.Entry<String, PodMetric> e : metrics.entrySet()) {
      Long request = requests.get(e.getKey());
      if (request == null) {
        continue; // a metric of a Pod not listed
      }
      metricsTotal += e.getValue().value();
      requestsTotal += request;
      entries++;
    }
    if (requestsTotal == 0) {
      throw new MetricException("no metrics returned matched known pods");
    }
    int utilization = (int) (metricsTotal * 100 / requestsTotal);
    return new Ratio((double) utilization / targetUtilization, utilization,
        metricsTotal / entries);
  }

  /** kube's {@code GetMetricUsageRatio}'s ratio. */
  private static double usageRatio(Map<String, PodMetric> metrics, long targetUsage) {
    return (double) average(metrics) / targetUsage;
  }

  private static long average(Map<String, PodMetric> metrics) {
    long total = 0;
    for (PodMetric m : metrics.values()) {
      total += m.value();
    }
    return total / metrics.size();
  }
}
