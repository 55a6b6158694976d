/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.cluster.internal.Quantities;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An amount of every resource, as kube-scheduler's {@code framework.Resource}: CPU in
 * millicores, the rest in whole units; mutable while summed, never shared.
 */
final class Resources {
  /** kube-scheduler's {@code DefaultMilliCPURequest}: a container without a CPU request. */
  static final long DEFAULT_MILLI_CPU = 100;
  /** {@code DefaultMemoryRequest}: 200 MB for a container without a memory request. */
  static final long DEFAULT_MEMORY = 200L * 1024 * 1024;

  final Map<String, Long> amounts = new TreeMap<>();

  long get(String resource) {
    return amounts.getOrDefault(resource, 0L);
  }

  void add(Map<String, Long> other) {
    other.forEach((k, v) -> amounts.merge(k, v, Long::sum));
  }

  void max(Map<String, Long> other) {
    other.forEach((k, v) -> amounts.merge(k, v, Math::max));
  }

  /** The resource list {@code list} (requests, allocatable) in the scheduler's units. */
  static Map<String, Long> of(Value list) {
    Map<String, Long> out = new HashMap<>();
    if (list instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        out.put(m.keyAt(i), Quantities.of(m.keyAt(i), m.valueAt(i)));
      }
    }
    return out;
  }

  /**
   * kube's {@code resourcehelper.PodRequests}: the pod-level requests when set, else the sum of
   * the containers' and sidecars' requests, at least each regular init container's request
   * plus the sidecars started before it; plus the Pod overhead.
   */
  static Resources podRequests(MapValue pod) {
    return requests(pod, false);
  }

  /**
   * The requests with kube's non-zero defaults for containers that request no CPU or memory
   * ({@code NonZeroRequested}), which least-allocated scoring counts.
   */
  static Resources nonZeroRequests(MapValue pod) {
    return requests(pod, true);
  }

  private static Resources requests(MapValue pod, boolean nonZero) {
    Resources r = new Resources();
    for (Value c : Nested.list(pod, "spec", "containers")) {
      r.add(containerRequests(c, nonZero));
    }
    Resources sidecars = new Resources();
    Resources initMax = new Resources();
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      Map<String, Long> req = containerRequests(c, nonZero);
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        sidecars.add(req);
        r.add(req);
      } else {
        Resources during = new Resources();
        during.add(sidecars.amounts);
        during.add(req);
        initMax.max(during.amounts);
      }
    }
    r.max(initMax.amounts);
    Value podLevel = Nested.getOrNull(pod, "spec", "resources", "requests");
    if (podLevel instanceof MapValue m && !m.isEmpty()) {
      Map<String, Long> level = of(m);
      for (String k : List.of("cpu", "memory")) {
        if (level.containsKey(k)) {
          r.amounts.put(k, level.get(k));
        }
      }
    }
    r.add(of(Nested.getOrNull(pod, "spec", "overhead")));
    return r;
  }

  private static Map<String, Long> containerRequests(Value c, boolean nonZero) {
    Map<String, Long> req = of(Nested.getOrNull(c, "resources", "requests"));
    if (nonZero) {
      req.putIfAbsent("cpu", DEFAULT_MILLI_CPU);
      req.putIfAbsent("memory", DEFAULT_MEMORY);
      if (req.get("cpu") == 0) {
        req.put("cpu", DEFAULT_MILLI_CPU);
      }
      if (req.get("memory") == 0) {
        req.put("memory", DEFAULT_MEMORY);
      }
    }
    return req;
  }
}
