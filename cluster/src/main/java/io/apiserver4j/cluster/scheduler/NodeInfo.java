/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.scheduler;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * kube-scheduler's {@code NodeInfo} for one scheduling cycle: a Node, the Pods assigned to it
 * (not terminated), their summed requests (plain and non-zero), the host ports they use, and,
 * as kube keeps them, the Pods with pod (anti-)affinity and those with required anti-affinity,
 * so that a cycle for a Pod without affinity terms reads only those. Mutable while built; a
 * built info is never changed again (copies are made with {@link #with}), so the scheduler may
 * reuse it over cycles while its Node and Pods stay the same.
 */
final class NodeInfo {
  /** A host port in use: kube's {@code HostPortInfo} key. */
  record HostPort(String ip, String protocol, long port) {}

  final MapValue node;
  final String name;
  final Map<String, Long> allocatable;
  final Resources requested = new Resources();
  final Resources nonZeroRequested = new Resources();
  final List<HostPort> usedPorts = new ArrayList<>();
  /** The Pods counted here, in the order they were added. */
  final List<MapValue> podList = new ArrayList<>();
  /** Each counted Pod's usage, in the order of {@link #podList}. */
  private final List<PodUsage> usages = new ArrayList<>();
  /** kube's {@code PodsWithAffinity}: the Pods with a podAffinity or podAntiAffinity. */
  final List<MapValue> podsWithAffinity = new ArrayList<>();
  /** kube's {@code PodsWithRequiredAntiAffinity}. */
  final List<MapValue> podsWithRequiredAntiAffinity = new ArrayList<>();
  int pods;
  /** Results computed from this info's Pods, by what was computed (see {@link #memo}). */
  private final Map<Object, Long> memos = new java.util.concurrent.ConcurrentHashMap<>();

  NodeInfo(MapValue node) {
    this(node, Resources.of(Nested.getOrNull(node, "status", "allocatable")));
  }

  /** The info of {@code node}, whose parsed {@code status.allocatable} is {@code allocatable}. */
  NodeInfo(MapValue node, Map<String, Long> allocatable) {
    this.node = node;
    this.name = io.apiserver4j.core.Meta.metaString(node, "name");
    this.allocatable = allocatable;
  }

  long allocatable(String resource) {
    return allocatable.getOrDefault(resource, 0L);
  }

  /** Counts {@code pod} as running here. */
  void add(MapValue pod) {
    add(pod, PodUsage.of(pod));
  }

  /** Counts {@code pod}, whose usage is {@code usage}, as running here. */
  void add(MapValue pod, PodUsage usage) {
    podList.add(pod);
    usages.add(usage);
    pods++;
    requested.add(usage.requests());
    nonZeroRequested.add(usage.nonZeroRequests());
    usedPorts.addAll(usage.ports());
    if (usage.withAffinity()) {
      podsWithAffinity.add(pod);
    }
    if (usage.withRequiredAntiAffinity()) {
      podsWithRequiredAntiAffinity.add(pod);
    }
  }

  /**
   * The value {@code compute} gives for {@code key} (a value with equality), computed once per
   * info: a built info never changes, and the scheduler reuses it over cycles, so a count over
   * its Pods (a spread selector's matches) is made once for every cycle that asks for it.
   */
  long memo(Object key, java.util.function.LongSupplier compute) {
    Long known = memos.get(key);
    if (known != null) {
      return known;
    }
    long value = compute.getAsLong();
    memos.put(key, value);
    return value;
  }

  /**
   * A copy of this Node's info without the Pods {@code removed} keeps (by identity) and with
   * {@code added}: what preemption and nominated Pods evaluate without touching the snapshot.
   */
  NodeInfo with(java.util.Collection<MapValue> removed, List<MapValue> added) {
    NodeInfo copy = new NodeInfo(node, allocatable);
    java.util.Set<MapValue> gone = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    gone.addAll(removed);
    for (int i = 0; i < podList.size(); i++) {
      if (!gone.contains(podList.get(i))) {
        copy.add(podList.get(i), usages.get(i));
      }
    }
    for (MapValue p : added) {
      copy.add(p);
    }
    return copy;
  }

  /**
   * What one Pod takes from its Node, and whether it has pod (anti-)affinity, computed once per
   * Pod: its spec's requests and affinity cannot change (in-place resize aside), and parsing
   * them for every Pod in every cycle would make a cycle cost as much as the whole cluster.
   */
  record PodUsage(Map<String, Long> requests, Map<String, Long> nonZeroRequests,
      List<HostPort> ports, boolean withAffinity, boolean withRequiredAntiAffinity) {
    static PodUsage of(MapValue pod) {
      return new PodUsage(Map.copyOf(Resources.podRequests(pod).amounts),
          Map.copyOf(Resources.nonZeroRequests(pod).amounts), List.copyOf(hostPorts(pod)),
          Nested.has(pod, "spec", "affinity", "podAffinity")
              || Nested.has(pod, "spec", "affinity", "podAntiAffinity"),
          !Nested.list(pod, "spec", "affinity", "podAntiAffinity",
              "requiredDuringSchedulingIgnoredDuringExecution").isEmpty());
    }
  }

  /** The host ports the Pod's containers and sidecars ask for. */
  static List<HostPort> hostPorts(MapValue pod) {
    List<HostPort> out = new ArrayList<>();
    List<Value> containers = new ArrayList<>(Nested.list(pod, "spec", "containers"));
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        containers.add(c);
      }
    }
    for (Value c : containers) {
      for (Value p : Nested.list(c, "ports")) {
        long port = Nested.integer(p, "hostPort");
        if (port <= 0) {
          continue;
        }
        String ip = Nested.str(p, "hostIP");
        String protocol = Nested.str(p, "protocol");
        out.add(new HostPort(ip.isEmpty() ? "0.0.0.0" : ip,
            protocol.isEmpty() ? "TCP" : protocol, port));
      }
    }
    return out;
  }
}
