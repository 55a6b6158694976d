/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.replicaset;

import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube's {@code controllerUID} Pod index ({@code AddPodControllerUIDIndexer} and
 * {@code FilterPodsByOwner} in pkg/controller/controller_utils.go), fed by the Pod informer's
 * events: the Pods controlled by each owner UID, and each namespace's orphans. A sync reads its
 * set's candidates from here instead of every Pod of the namespace, as kube's ReplicaSet
 * controller does. Thread-safe.
 */
final class PodOwnerIndex implements ResourceEventHandler {
  private final Informer pods;
  /** Pod keys by controller UID. */
  private final Map<String, Set<String>> controlled = new ConcurrentHashMap<>();
  /** Keys of Pods without a controller, by namespace. */
  private final Map<String, Set<String>> orphans = new ConcurrentHashMap<>();

  /** An index of the Pods of {@code pods}, to be added as one of its handlers. */
  PodOwnerIndex(Informer pods) {
    this.pods = pods;
  }

  private Set<String> bucket(MapValue pod) {
    return Pods.controllerRef(pod)
        .map(ref -> controlled.computeIfAbsent(Nested.str(ref, "uid"),
            uid -> ConcurrentHashMap.newKeySet()))
        .orElseGet(() -> orphans.computeIfAbsent(Meta.metaString(pod, "namespace"),
            ns -> ConcurrentHashMap.newKeySet()));
  }

  private static String key(MapValue pod) {
    return Meta.metaString(pod, "namespace") + "/" + Meta.metaString(pod, "name");
  }

  @Override
  public void onAdd(MapValue pod) {
    bucket(pod).add(key(pod));
  }

  @Override
  public void onUpdate(MapValue old, MapValue pod) {
    Set<String> now = bucket(pod);
    // the new bucket first, so that a concurrent sync never misses the Pod
    now.add(key(pod));
    Set<String> before = bucket(old);
    if (before != now) {
      before.remove(key(old));
    }
  }

  @Override
  public void onDelete(MapValue pod) {
    bucket(pod).remove(key(pod));
  }

  /**
   * The cached Pods of {@code namespace} that the owner {@code uid} controls, then the
   * namespace's orphans: the candidates kube's {@code FilterPodsByOwner} returns with orphans
   * included. Each is the informer's current object, listed once, and only while it still
   * belongs there (a Pod being adopted or released is briefly in both buckets).
   */
  List<MapValue> candidates(String namespace, String uid) {
    Set<String> keys = new LinkedHashSet<>(controlled.getOrDefault(uid, Set.of()));
    keys.addAll(orphans.getOrDefault(namespace, Set.of()));
    List<MapValue> out = new ArrayList<>();
    for (String k : keys) {
      int slash = k.indexOf('/');
      if (!k.substring(0, slash).equals(namespace)) {
        continue;
      }
      pods.get(namespace, k.substring(slash + 1)).ifPresent(pod -> {
        Optional<MapValue> ref = Pods.controllerRef(pod);
        if (ref.isEmpty() || Nested.str(ref.get(), "uid").equals(uid)) {
          out.add(pod);
        }
      });
    }
    return out;
  }
}
