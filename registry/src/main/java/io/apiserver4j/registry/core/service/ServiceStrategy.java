/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * core/v1 Service (kube's pkg/registry/core/service): a DNS-1035 label name,
 * {@code SetDefaults_Service}, the registry's preparation of cluster IPs and allocated values on
 * update ({@code NormalizeClusterIPs}, {@code patchAllocatedValues},
 * {@code dropTypeDependentFields}), its validation ({@code ServiceValidation}) and its allocator
 * ({@code ServiceAllocator}).
 */
public final class ServiceStrategy {
  private ServiceStrategy() {}

  /** The Service strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1035_LABEL)
        .defaulter(ServiceStrategy::defaultService)
        .prepareForCreate((o, old) -> normalizeClusterIps(o, null))
        .prepareForUpdate((o, old) -> prepareUpdate(o, old.orElseThrow()))
        .validator(ServiceValidation::validateService)
        .allocator(ServiceAllocator.INSTANCE)
        .subresourceConnect("proxy", io.apiserver4j.registry.internal.ProxyConnect.services())
        .build();
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultService(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      r = Nested.set(r, MapValue.empty(), "spec");
    }
    r = Nested.setDefault(r, Value.of("None"), "spec", "sessionAffinity");
    String affinity = str(r, "spec", "sessionAffinity");
    if (affinity.equals("None")) {
      r = Nested.remove(r, "spec", "sessionAffinityConfig");
    } else if (affinity.equals("ClientIP")) {
      r = Nested.setDefault(r, Value.of(10800L), "spec", "sessionAffinityConfig", "clientIP",
          "timeoutSeconds");
    }
    r = Nested.setDefault(r, Value.of("ClusterIP"), "spec", "type");
    r = Nested.updateListItems(r, p -> {
      MapValue q = Nested.setDefault(p, Value.of("TCP"), "protocol");
      Value target = q.getOrNull("targetPort");
      boolean unset = target == null || target.isNull()
          || (target instanceof IntegerValue i && i.value() == 0)
          || (target instanceof StringValue s && s.value().isEmpty());
      Value port = q.getOrNull("port");
      return unset && port != null ? q.with("targetPort", port) : q;
    }, "spec", "ports");
    String type = str(r, "spec", "type");
    if (externallyAccessible(r)) {
      r = Nested.setDefault(r, Value.of("Cluster"), "spec", "externalTrafficPolicy");
    }
    if (type.equals("NodePort") || type.equals("LoadBalancer") || type.equals("ClusterIP")) {
      r = Nested.setDefault(r, Value.of("Cluster"), "spec", "internalTrafficPolicy");
    }
    if (type.equals("LoadBalancer")) {
      r = Nested.setDefault(r, Value.of(true), "spec", "allocateLoadBalancerNodePorts");
      r = Nested.updateListItems(r, ing -> str(ing, "ip").isEmpty() ? ing
          : Nested.setDefault(ing, Value.of("VIP"), "ipMode"), "status", "loadBalancer",
          "ingress");
    }
    return r;
  }

  static boolean externallyAccessible(MapValue svc) {
    String type = str(svc, "spec", "type");
    return type.equals("LoadBalancer") || type.equals("NodePort")
        || (type.equals("ClusterIP") && !Nested.list(svc, "spec", "externalIPs").isEmpty());
  }

  static boolean needsClusterIp(MapValue svc) {
    String type = str(svc, "spec", "type");
    return type.equals("ClusterIP") || type.equals("NodePort") || type.equals("LoadBalancer");
  }

  static boolean needsNodePort(MapValue svc) {
    String type = str(svc, "spec", "type");
    if (type.equals("NodePort")) {
      return true;
    }
    return type.equals("LoadBalancer")
        && !(Nested.getOrNull(svc, "spec", "allocateLoadBalancerNodePorts")
            instanceof io.apiserver4j.core.BooleanValue b && !b.value());
  }

  static boolean needsHealthCheckNodePort(MapValue svc) {
    return str(svc, "spec", "type").equals("LoadBalancer")
        && str(svc, "spec", "externalTrafficPolicy").equals("Local");
  }

  static boolean isHeadless(MapValue svc) {
    return str(svc, "spec", "clusterIP").equals("None");
  }

  // --- preparation -------------------------------------------------------------------------

  /** kube's {@code NormalizeClusterIPs}: what a client meant with the singular and plural field. */
  static MapValue normalizeClusterIps(MapValue svc, MapValue old) {
    String ip = str(svc, "spec", "clusterIP");
    List<Value> ips = Nested.list(svc, "spec", "clusterIPs");
    if (old == null) {
      return !ip.isEmpty() && ips.isEmpty()
          ? Nested.set(svc, ListValue.of(List.of(Value.of(ip))), "spec", "clusterIPs") : svc;
    }
    MapValue r = svc;
    List<Value> oldIps = Nested.list(old, "spec", "clusterIPs");
    String oldIp = str(old, "spec", "clusterIP");
    if (!oldIps.isEmpty() && ips.isEmpty() && oldIp.equals(ip)) {
      r = Nested.set(r, ListValue.of(oldIps), "spec", "clusterIPs");
    }
    if (!oldIp.equals(ip)) {
      boolean same = Nested.list(r, "spec", "clusterIPs").equals(oldIps);
      if (!oldIp.isEmpty() && ip.isEmpty()) {
        if (same) {
          r = Nested.remove(r, "spec", "clusterIPs");
        }
      } else if (same) {
        r = Nested.set(r, ListValue.of(List.of(Value.of(ip))), "spec", "clusterIPs");
      }
    }
    return r;
  }

  private static MapValue prepareUpdate(MapValue svc, MapValue old) {
    MapValue r = patchAllocatedValues(svc, old);
    r = normalizeClusterIps(r, old);
    return dropTypeDependentFields(r, old);
  }

  /** kube's {@code patchAllocatedValues}: a client that left allocated values out keeps them. */
  static MapValue patchAllocatedValues(MapValue svc, MapValue old) {
    MapValue r = svc;
    if (needsClusterIp(old) && needsClusterIp(r)) {
      if (str(r, "spec", "clusterIP").isEmpty() && !str(old, "spec", "clusterIP").isEmpty()) {
        r = Nested.set(r, Value.of(str(old, "spec", "clusterIP")), "spec", "clusterIP");
      }
      if (Nested.list(r, "spec", "clusterIPs").isEmpty()
          && !Nested.list(old, "spec", "clusterIPs").isEmpty()) {
        r = Nested.set(r, Nested.getOrNull(old, "spec", "clusterIPs"), "spec", "clusterIPs");
      }
      for (String f : List.of("ipFamilies", "ipFamilyPolicy")) {
        if (Nested.getOrNull(r, "spec", f) == null && Nested.getOrNull(old, "spec", f) != null) {
          r = Nested.set(r, Nested.getOrNull(old, "spec", f), "spec", f);
        }
      }
    }
    if (needsNodePort(old) && needsNodePort(r)) {
      Set<Long> oldUsed = nodePorts(old);
      Set<Long> used = new HashSet<>(nodePorts(r));
      used.retainAll(oldUsed);
      java.util.Map<String, Long> byName = new java.util.HashMap<>();
      for (MapValue p : items(Nested.getOrNull(old, "spec", "ports"))) {
        byName.put(str(p, "name"), p.getOrNull("nodePort") instanceof IntegerValue n
            ? n.value() : 0L);
      }
      r = Nested.updateListItems(r, p -> {
        Value np = p.getOrNull("nodePort");
        if (np instanceof IntegerValue n && n.value() != 0) {
          return p;
        }
        long oldVal = byName.getOrDefault(str(p, "name"), 0L);
        return oldVal != 0 && !used.contains(oldVal) ? p.with("nodePort", Value.of(oldVal)) : p;
      }, "spec", "ports");
    }
    if (needsHealthCheckNodePort(old) && needsHealthCheckNodePort(r)
        && !(Nested.getOrNull(r, "spec", "healthCheckNodePort") instanceof IntegerValue h
            && h.value() != 0)) {
      Value hc = Nested.getOrNull(old, "spec", "healthCheckNodePort");
      if (hc != null) {
        r = Nested.set(r, hc, "spec", "healthCheckNodePort");
      }
    }
    return r;
  }

  static Set<Long> nodePorts(MapValue svc) {
    Set<Long> out = new HashSet<>();
    for (MapValue p : items(Nested.getOrNull(svc, "spec", "ports"))) {
      if (p.getOrNull("nodePort") instanceof IntegerValue n && n.value() != 0) {
        out.add(n.value());
      }
    }
    return out;
  }

  /**
   * kube's {@code dropTypeDependentFields}: fields the old type needed and the new one does
   * not are cleared when the client left them as they were.
   */
  static MapValue dropTypeDependentFields(MapValue svc, MapValue old) {
    MapValue r = svc;
    if (needsClusterIp(old) && !needsClusterIp(r)) {
      if (sameField(r, old, "clusterIP") && sameField(r, old, "clusterIPs")) {
        r = Nested.remove(Nested.remove(r, "spec", "clusterIP"), "spec", "clusterIPs");
      }
      if (sameField(r, old, "ipFamilies")) {
        r = Nested.remove(r, "spec", "ipFamilies");
      }
      if (sameField(r, old, "ipFamilyPolicy")) {
        r = Nested.remove(r, "spec", "ipFamilyPolicy");
      }
    }
    if (needsNodePort(old) && !needsNodePort(r) && nodePorts(r).equals(nodePorts(old))) {
      r = Nested.updateListItems(r, p -> p.without("nodePort"), "spec", "ports");
    }
    if (needsHealthCheckNodePort(old) && !needsHealthCheckNodePort(r)
        && sameField(r, old, "healthCheckNodePort")) {
      r = Nested.remove(r, "spec", "healthCheckNodePort");
    }
    if (str(old, "spec", "type").equals("LoadBalancer")
        && !str(r, "spec", "type").equals("LoadBalancer")) {
      for (String f : List.of("allocateLoadBalancerNodePorts", "loadBalancerClass")) {
        if (sameField(r, old, f)) {
          r = Nested.remove(r, "spec", f);
        }
      }
    }
    if (externallyAccessible(old) && !externallyAccessible(r)
        && sameField(r, old, "externalTrafficPolicy")) {
      r = Nested.remove(r, "spec", "externalTrafficPolicy");
    }
    return r;
  }

  private static boolean sameField(MapValue a, MapValue b, String field) {
    return java.util.Objects.equals(Nested.getOrNull(a, "spec", field),
        Nested.getOrNull(b, "spec", field));
  }
}
