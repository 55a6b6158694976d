/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code EndpointSliceTracker}: the generation of every slice a controller wrote, by
 * Service, so that a sync on an informer cache that has not seen those writes yet (which would
 * create duplicates) is retried instead. Shared by the endpointslice and endpointslicemirroring
 * controllers. Thread-safe.
 */
public final class EndpointSliceTracker {
  /** kube's {@code deletionExpected}. */
  private static final long DELETION_EXPECTED = -1;

  private final Map<String, Map<String, Long>> byService = new HashMap<>();

  /** Records a slice as written, at its generation. */
  public synchronized void update(String serviceKey, MapValue slice) {
    byService.computeIfAbsent(serviceKey, k -> new HashMap<>())
        .put(Meta.metaString(slice, "uid"), Meta.generation(slice));
  }

  /** Records a slice as deleted by the controller. */
  public synchronized void expectDeletion(String serviceKey, MapValue slice) {
    byService.computeIfAbsent(serviceKey, k -> new HashMap<>())
        .put(Meta.metaString(slice, "uid"), DELETION_EXPECTED);
  }

  /** {@code HandleDeletion}: the informer saw the slice go. */
  public synchronized void deleted(String serviceKey, MapValue slice) {
    Map<String, Long> g = byService.get(serviceKey);
    if (g != null) {
      g.remove(Meta.metaString(slice, "uid"));
    }
  }

  /**
   * {@code ShouldSync}: whether an informer event for the slice is news to the controller (not
   * its own write).
   */
  public synchronized boolean shouldSync(String serviceKey, MapValue slice) {
    Map<String, Long> g = byService.get(serviceKey);
    if (g == null) {
      return true;
    }
    Long expected = g.get(Meta.metaString(slice, "uid"));
    return expected == null || expected == DELETION_EXPECTED
        || Meta.generation(slice) > expected;
  }

  /**
   * {@code StaleSlices}: whether the cached slices miss a write of the controller (an older
   * generation, a slice deleted still there, a slice created not there yet).
   */
  public synchronized boolean stale(String serviceKey, List<MapValue> cached) {
    Map<String, Long> g = byService.get(serviceKey);
    if (g == null) {
      return false;
    }
    Set<String> seen = new HashSet<>();
    for (MapValue slice : cached) {
      String uid = Meta.metaString(slice, "uid");
      seen.add(uid);
      Long expected = g.get(uid);
      if (expected != null && (expected == DELETION_EXPECTED
          || expected > Meta.generation(slice))) {
        return true;
      }
    }
    for (Map.Entry<String, Long> e : g.entrySet()) {
      if (e.getValue() != DELETION_EXPECTED && !seen.contains(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  /** Forgets a deleted Service. */
  public synchronized void deleteService(String serviceKey) {
    byService.remove(serviceKey);
  }

  /** The {@code kubernetes.io/service-name} label of a slice. */
  public static String serviceName(MapValue slice) {
    return Nested.str(slice, "metadata", "labels", "kubernetes.io/service-name");
  }
}
