/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code controllerUID} Pod index ({@code AddPodControllerUIDIndexer} and
 * {@code FilterPodsByOwner} in pkg/controller/controller_utils.go), fed by the Pod informer's
 * events: the Pods controlled by each owner UID, and each namespace's orphans. A sync reads its
 * set's candidates from here instead of every Pod of the namespace, as kube's ReplicaSet
 * controller does. Thread-safe.
 */
final class PodOwnerIndex implements ResourceEventHandler {
  /** Pods by controller UID, then key. */
  private final Map<String, Map<String, MapValue>> controlled = new ConcurrentHashMap<>();
  /** Pods without a controller by namespace, then key. */
  private final Map<String, Map<String, MapValue>> orphans = new ConcurrentHashMap<>();

  private Map<String, MapValue> bucket(MapValue pod) {
    return Pods.controllerRef(pod)
        .map(ref -> controlled.computeIfAbsent(Nested.str(ref, "uid"),
            uid -> new ConcurrentHashMap<>()))
        .orElseGet(() -> orphans.computeIfAbsent(Meta.metaString(pod, "namespace"),
            ns -> new ConcurrentHashMap<>()));
  }

  private static String key(MapValue pod) {
    return Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name");
  }

  @Override
  public void onAdd(MapValue pod) {
    bucket(pod).put(key(pod), pod);
  }

  @Override
  public void onUpdate(MapValue old, MapValue pod) {
    Map<String, MapValue> now = bucket(pod);
    // the new state first, so that a concurrent sync never misses the Pod
    now.put(key(pod), pod);
    Map<String, MapValue> before = bucket(old);
    if (before != now) {
      before.remove(key(old), old);
    }
  }

  @Override
  public void onDelete(MapValue pod) {
    bucket(pod).remove(key(pod));
  }

  /**
   * The Pods of {@code namespace} that the owner {@code uid} controls, then the namespace's
   * orphans: the candidates kube's {@code FilterPodsByOwner} returns with orphans included.
   */
  List<MapValue> candidates(String namespace, String uid) {
    List<MapValue> out = new ArrayList<>();
    for (MapValue pod : controlled.getOrDefault(uid, Map.of()).values()) {
      if (Meta.metaString(pod, "namespace").equals(namespace)) {
        out.add(pod);
      }
    }
    out.addAll(orphans.getOrDefault(namespace, Map.of()).values());
    return out;
  }
}
