/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code TriggerTimeTracker} (k8s.io/endpointslice/util): the time to publish as
 * {@code endpoints.kubernetes.io/last-change-trigger-time}, the earliest change (a Pod's Ready
 * transition, the Service's creation) since the Service's last sync. Safe for concurrent calls
 * with different keys; calls for one key must not overlap (a work queue guarantees that).
 */
public final class TriggerTimeTracker {
  private record State(Map<String, Instant> pods, Optional<Instant> service) {}

  private final Map<String, State> states = new ConcurrentHashMap<>();

  /**
   * {@code ComputeEndpointLastChangeTriggerTime}: the Service's creation time on its first sync,
   * else the earliest trigger time that moved since the last one; empty when none did.
   */
  public Optional<Instant> compute(MapValue service, List<MapValue> pods) {
    String key = Pods.key(service);
    State state = states.get(key);
    Instant min = null;
    Map<String, Instant> podTimes = new HashMap<>();
    for (MapValue pod : pods) {
      Optional<Instant> t = readyTransition(pod);
      if (t.isEmpty()) {
        continue;
      }
      String name = Meta.metaString(pod, "name");
      podTimes.put(name, t.get());
      Instant last = state == null ? null : state.pods().get(name);
      if (last == null || t.get().isAfter(last)) {
        min = min == null || t.get().isBefore(min) ? t.get() : min;
      }
    }
    Optional<Instant> created = Pods.time(service, "metadata", "creationTimestamp");
    if (created.isPresent() && (state == null || state.service().isEmpty()
        || created.get().isAfter(state.service().get()))) {
      min = min == null || created.get().isBefore(min) ? created.get() : min;
    }
    states.put(key, new State(podTimes, created));
    if (state == null) {
      return created;
    }
    return Optional.ofNullable(min);
  }

  /** Forgets a deleted Service. */
  public void delete(String serviceKey) {
    states.remove(serviceKey);
  }

  private static Optional<Instant> readyTransition(MapValue pod) {
    for (Value c : Nested.list(pod, "status", "conditions")) {
      if (Nested.str(c, "type").equals("Ready")) {
        return Pods.time(c, "lastTransitionTime");
      }
    }
    return Optional.empty();
  }
}
