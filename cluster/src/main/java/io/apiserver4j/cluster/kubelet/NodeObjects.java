/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cluster.kubelet;

import io.apiserver4j.cluster.internal.NodeSpec;
import io.apiserver4j.cluster.internal.Obj;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The Node and Lease objects of a simulated kubelet, shaped as kubelet registers them
 * (pkg/kubelet/kubelet_node_status.go and nodestatus/setters.go): kubelet's labels, the
 * conditions MemoryPressure, DiskPressure, PIDPressure and Ready with kubelet's reasons and
 * messages, addresses, daemon endpoints, nodeInfo, capacity equal to allocatable; the Lease of
 * pkg/kubelet/nodelease with a 40 s duration.
 */
final class NodeObjects {
  /** kubelet's {@code nodeLeaseDurationSeconds} default. */
  static final long LEASE_DURATION_SECONDS = 40;
  static final String LEASE_NAMESPACE = "kube-node-lease";
  static final String KUBELET_VERSION = "v1.36.0";

  private NodeObjects() {}

  /** The pod CIDR of the {@code index}th Node (from 0): {@code 10.244.<index>.0/24}. */
  static String podCidr(int index) {
    return "10." + (244 + index / 256) + "." + (index % 256) + ".0/24";
  }

  /** The InternalIP of the {@code index}th Node: 172.18.0.2 onwards, as kind's Nodes. */
  static String internalIp(int index) {
    int n = index + 2;
    return "172.18." + (n / 256) + "." + (n % 256);
  }

  /**
   * The Node object the {@code index}th configured Node registers with at {@code now}, its
   * conditions healthy but for {@code overrides}.
   */
  static MapValue node(NodeSpec config, int index, Instant now,
      Map<String, Condition> overrides) {
    String name = config.name();
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("beta.kubernetes.io/arch", "amd64");
    labels.put("beta.kubernetes.io/os", "linux");
    labels.put("kubernetes.io/arch", "amd64");
    labels.put("kubernetes.io/hostname", name);
    labels.put("kubernetes.io/os", "linux");
    config.zone().ifPresent(z -> labels.put("topology.kubernetes.io/zone", z));
    labels.putAll(config.labels());
    List<Object> taints = new ArrayList<>();
    for (NodeSpec.Taint t : config.taints()) {
      taints.add(Obj.map("key", t.key(), "value", t.value().isEmpty() ? null : t.value(),
          "effect", t.effect()));
    }
    String cidr = podCidr(index);
    return Obj.map("apiVersion", "v1", "kind", "Node",
        "metadata", Obj.map("name", name, "labels", labels,
            "annotations", Obj.map("node.alpha.kubernetes.io/ttl", "0",
                "volumes.kubernetes.io/controller-managed-attach-detach", "true")),
        "spec", Obj.map("podCIDR", cidr, "podCIDRs", List.of(cidr),
            "taints", taints.isEmpty() ? null : taints),
        "status", status(config, index, now, List.of(), overrides));
  }

  /** A condition a test made the kubelet report instead of its healthy one. */
  record Condition(String status, String reason, String message) {}

  /** kubelet's own Node condition types, in the order it reports them. */
  static final List<String> CONDITION_TYPES =
      List.of("MemoryPressure", "DiskPressure", "PIDPressure", "Ready");

  /**
   * The Node's status at {@code now}: every condition's heartbeat is {@code now}, its transition
   * time kept from {@code previous} conditions when its status did not change; a condition
   * type in {@code overrides} is reported as given there instead of healthy.
   */
  static MapValue status(NodeSpec config, int index, Instant now,
      List<io.apiserver4j.core.Value> previous, Map<String, Condition> overrides) {
    String time = Meta.formatTime(now);
    List<Object> conditions = new ArrayList<>();
    for (String[] c : new String[][] {
        {"MemoryPressure", "False", "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available"},
        {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
        {"PIDPressure", "False", "KubeletHasSufficientPID",
            "kubelet has sufficient PID available"},
        {"Ready", "True", "KubeletReady", "kubelet is posting ready status"}}) {
      Condition override = overrides.get(c[0]);
      if (override != null) {
        c = new String[] {c[0], override.status(), override.reason(), override.message()};
      }
      String transition = time;
      for (io.apiserver4j.core.Value p : previous) {
        if (io.apiserver4j.core.Nested.str(p, "type").equals(c[0])
            && io.apiserver4j.core.Nested.str(p, "status").equals(c[1])) {
          transition = io.apiserver4j.core.Nested.str(p, "lastTransitionTime");
        }
      }
      conditions.add(Obj.map("type", c[0], "status", c[1], "lastHeartbeatTime", time,
          "lastTransitionTime", transition, "reason", c[2], "message", c[3]));
    }
    String id = uuid(config.name(), "machine").replace("-", "");
    return Obj.map("capacity", config.capacity(), "allocatable", config.capacity(),
        "conditions", conditions,
        "addresses", List.of(Obj.map("type", "InternalIP", "address", internalIp(index)),
            Obj.map("type", "Hostname", "address", config.name())),
        "daemonEndpoints", Obj.map("kubeletEndpoint", Obj.map("Port", 10250)),
        "nodeInfo", Obj.map("machineID", id, "systemUUID", uuid(config.name(), "system"),
            "bootID", uuid(config.name(), "boot"), "kernelVersion", "6.8.0-apiserver4j",
            "osImage", "apiserver4j simulated node", "containerRuntimeVersion",
            "containerd://2.0.0", "kubeletVersion", KUBELET_VERSION, "kubeProxyVersion", "",
            "operatingSystem", "linux", "architecture", "amd64"));
  }

  /** The Node's Lease, renewed at {@code now}, owned by the Node. */
  static MapValue lease(String node, String nodeUid, Instant now) {
    return Obj.map("apiVersion", "coordination.k8s.io/v1", "kind", "Lease",
        "metadata", Obj.map("name", node, "namespace", LEASE_NAMESPACE,
            "ownerReferences", List.of(Obj.map("apiVersion", "v1", "kind", "Node",
                "name", node, "uid", nodeUid))),
        "spec", Obj.map("holderIdentity", node, "leaseDurationSeconds", LEASE_DURATION_SECONDS,
            "renewTime", Obj.microTime(now)));
  }

  private static String uuid(String name, String what) {
    return UUID.nameUUIDFromBytes((what + "/" + name).getBytes(StandardCharsets.UTF_8))
        .toString();
  }
}
