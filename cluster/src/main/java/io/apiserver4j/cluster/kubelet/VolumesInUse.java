/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.kubelet;

import io.apiserver4j.controllers.internal.ControllerContext;
import io.apiserver4j.controllers.internal.CsiVolumes;
import io.apiserver4j.controllers.internal.Informer;
import io.apiserver4j.controllers.internal.Pods;
import io.apiserver4j.controllers.internal.ResourceEventHandler;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * What kubelet's volume manager reports as {@code status.volumesInUse} of its Node
 * ({@code GetVolumesInUse}): the unique names of the attachable volumes its Pods mount, sorted,
 * from when a Pod using one is bound until it is removed or has terminated (Succeeded or Failed:
 * its volumes are unmounted). Only CSI volumes exist here, attachable as {@link CsiVolumes} says.
 * Thread-safe.
 */
final class VolumesInUse {
  private final Informer pods;
  private final Informer claims;
  private final Informer volumes;
  private final Informer drivers;
  /** The keys of the Pods with claim volumes, by Node. */
  private final Map<String, Set<String>> podsByNode = new ConcurrentHashMap<>();

  /**
   * Follows the Pods, claims, volumes and CSIDrivers of {@code context}'s informers; calls
   * {@code changed} with a Node whose volumes in use may have changed.
   */
  VolumesInUse(ControllerContext context, Informer pods, Consumer<String> changed) {
    this.pods = pods;
    this.claims = context.informers().informer(new GroupResource("", "persistentvolumeclaims"));
    this.volumes = context.informers().informer(new GroupResource("", "persistentvolumes"));
    this.drivers = context.informers().informer(new GroupResource("storage.k8s.io",
        "csidrivers"));
    pods.addHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue pod) {
        track(pod, changed);
      }

      @Override
      public void onUpdate(MapValue old, MapValue pod) {
        track(pod, changed);
      }

      @Override
      public void onDelete(MapValue pod) {
        String node = Nested.str(pod, "spec", "nodeName");
        Set<String> keys = podsByNode.get(node);
        if (keys != null && keys.remove(Pods.key(pod))) {
          changed.accept(node);
        }
      }
    });
    ResourceEventHandler anyNode = new ResourceEventHandler() {
      @Override
      public void onAdd(MapValue object) {
        everyNode(changed);
      }

      @Override
      public void onUpdate(MapValue old, MapValue object) {
        everyNode(changed);
      }

      @Override
      public void onDelete(MapValue object) {
        everyNode(changed);
      }
    };
    claims.addHandler(anyNode);
    volumes.addHandler(anyNode);
    drivers.addHandler(anyNode);
  }

  private void track(MapValue pod, Consumer<String> changed) {
    String node = Nested.str(pod, "spec", "nodeName");
    if (node.isEmpty() || CsiVolumes.claimNames(pod).isEmpty()) {
      return;
    }
    podsByNode.computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet()).add(Pods.key(pod));
    changed.accept(node);
  }

  private void everyNode(Consumer<String> changed) {
    podsByNode.forEach((node, keys) -> {
      if (!keys.isEmpty()) {
        changed.accept(node);
      }
    });
  }

  /** The sorted unique names of the attachable volumes {@code node}'s Pods mount now. */
  List<String> of(String node) {
    Set<String> out = new TreeSet<>();
    for (String key : podsByNode.getOrDefault(node, Set.of())) {
      int slash = key.indexOf('/');
      Optional<MapValue> pod = pods.get(key.substring(0, slash), key.substring(slash + 1));
      if (pod.isEmpty() || !node.equals(Nested.str(pod.get(), "spec", "nodeName"))) {
        continue;
      }
      String phase = Nested.str(pod.get(), "status", "phase");
      if (phase.equals("Succeeded") || phase.equals("Failed")) {
        continue;
      }
      out.addAll(CsiVolumes.attachable(pod.get(), claims, volumes, drivers).keySet());
    }
    return List.copyOf(out);
  }
}
