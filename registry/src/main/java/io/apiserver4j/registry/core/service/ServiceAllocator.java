/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.strategy.Allocation;
import io.apiserver4j.apiserver.strategy.Allocator;
import io.apiserver4j.apimachinery.validation.IpAddresses.Cidr;
import io.apiserver4j.apimachinery.validation.IpAddresses.Ip;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.ServiceRanges;

/**
 * kube's Service allocators on a single-stack cluster: cluster IPs from
 * {@code --service-cluster-ip-range} (network and broadcast addresses excluded; dynamic addresses
 * taken above the static band kube reserves for requested ones), node ports and health check node
 * ports from {@code --service-node-port-range}, {@code ipFamilies}/{@code ipFamilyPolicy}
 * defaults, and kube's errors for taken or out-of-range values. What is taken is what the other
 * stored Services hold, so allocations survive restarts and deletes free them. A dry run checks
 * requested values and holds nothing: a dynamic cluster IP is the range's network address and a
 * dynamic node port the range's first port, as kube's dry-run allocators answer. Stateless.
 */
final class ServiceAllocator implements Allocator {
  private static final GroupKind SERVICE = new GroupKind("", "Service");

  static final ServiceAllocator INSTANCE = new ServiceAllocator();

  private ServiceAllocator() {}

  @Override
  public MapValue allocate(MapValue object, Optional<MapValue> old,
      Allocation allocation) {
    MapValue r = old.isPresent()
        ? ServiceStrategy.dropTypeDependentFields(ServiceStrategy.normalizeClusterIps(
            ServiceStrategy.patchAllocatedValues(object, old.get()), old.get()), old.get())
        : ServiceStrategy.normalizeClusterIps(object, null);
    if (!ServiceStrategy.needsClusterIp(r)) {
      return r;
    }
    Cidr cidr = IpAddresses.parseCidr(allocation.setting(ServiceRanges.CLUSTER_IP_RANGE_FLAG)
        .orElse(ServiceRanges.DEFAULT_CLUSTER_IP_RANGE)).orElseThrow();
    int[] portRange = ServiceRanges.ports(allocation.setting(ServiceRanges.NODE_PORT_RANGE_FLAG)
        .orElse(ServiceRanges.DEFAULT_NODE_PORT_RANGE));
    String name = Meta.metaString(r, "name");
    r = families(r, cidr, name);
    List<MapValue> others = null;
    Set<String> oldIps = new HashSet<>();
    old.ifPresent(o -> Nested.list(o, "spec", "clusterIPs").forEach(v -> oldIps.add(
        v instanceof StringValue s ? s.value() : "")));
    List<Value> ips = Nested.list(r, "spec", "clusterIPs");
    if (ips.isEmpty()) {
      others = allocation.others();
      Ip ip = allocation.dryRun() ? cidr.base() : nextFreeIp(cidr, takenIps(others), name);
      ListValue list = ListValue.of(List.of(Value.of(ip.toString())));
      r = Nested.set(Nested.set(r, Value.of(ip.toString()), "spec", "clusterIP"), list, "spec",
          "clusterIPs");
    } else {
      for (Value v : ips) {
        String requested = v instanceof StringValue s ? s.value() : "";
        Optional<Ip> ip = IpAddresses.parse(requested);
        if (requested.equals("None") || ip.isEmpty() || oldIps.contains(requested)) {
          continue; // headless, or invalid (validation says so), or held already
        }
        String problem = null;
        if (!usable(cidr, ip.get())) {
          problem = "the provided IP (" + requested + ") is not in the valid range. The range"
              + " of valid IPs is " + cidr;
        } else {
          if (others == null) {
            others = allocation.others();
          }
          if (takenIps(others).contains(ip.get().value())) {
            problem = "provided IP is already allocated";
          }
        }
        if (problem != null) {
          throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(
              "spec.clusterIPs", ListValue.of(ips), "failed to allocate IP " + requested + ": "
                  + problem)));
        }
      }
    }
    if (ServiceStrategy.needsNodePort(r) || ServiceStrategy.needsHealthCheckNodePort(r)) {
      if (others == null) {
        others = allocation.others();
      }
      r = nodePorts(r, old, portRange, takenPorts(others), allocation.dryRun(), name);
    }
    return r;
  }

  /** kube's {@code initIPFamilyFields} on a single-stack cluster. */
  private static MapValue families(MapValue svc, Cidr cidr, String name) {
    String family = cidr.base().v6() ? "IPv6" : "IPv4";
    MapValue r = svc;
    String policy = str(r, "spec", "ipFamilyPolicy");
    if (policy.equals("RequireDualStack")) {
      throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(
          "spec.ipFamilyPolicy", Value.of(policy),
          "this cluster is not configured for dual-stack services")));
    }
    List<Value> families = Nested.list(r, "spec", "ipFamilies");
    for (int i = 0; i < families.size(); i++) {
      if (families.get(i) instanceof StringValue f && (f.value().equals("IPv4")
          || f.value().equals("IPv6")) && !f.value().equals(family)) {
        throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(
            index("spec.ipFamilies", i), f, "not configured on this cluster")));
      }
    }
    if (policy.isEmpty()) {
      r = Nested.set(r, Value.of("SingleStack"), "spec", "ipFamilyPolicy");
    }
    if (families.isEmpty() || families.size() > 1) {
      r = Nested.set(r, ListValue.of(List.of(Value.of(family))), "spec", "ipFamilies");
    }
    return r;
  }

  // kube's range: the network address and (IPv4) the broadcast address are never allocated
  private static boolean usable(Cidr cidr, Ip ip) {
    if (!cidr.contains(ip)) {
      return false;
    }
    BigInteger offset = ip.value().subtract(cidr.base().value());
    BigInteger last = cidr.size().subtract(BigInteger.ONE);
    return offset.signum() > 0 && (cidr.base().v6() || offset.compareTo(last) < 0);
  }

  private static Set<BigInteger> takenIps(List<MapValue> others) {
    Set<BigInteger> out = new HashSet<>();
    for (MapValue o : others) {
      for (Value v : Nested.list(o, "spec", "clusterIPs")) {
        if (v instanceof StringValue s) {
          IpAddresses.parse(s.value()).ifPresent(ip -> out.add(ip.value()));
        }
      }
    }
    return out;
  }

  /**
   * The first free address of the dynamic band (above kube's static band of
   * {@code min(max(16, size/16), 256)} addresses), then of the static band.
   */
  private static Ip nextFreeIp(Cidr cidr, Set<BigInteger> taken, String name) {
    BigInteger usable = cidr.size().subtract(cidr.base().v6() ? BigInteger.ONE
        : BigInteger.TWO);
    long size = usable.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    long band = size <= 16 ? 0 : Math.min(Math.max(16, size / 16), 256);
    // scanning is bounded by what is taken: at most taken.size() + 1 probes per band
    long limit = taken.size() + 1L;
    for (long[] span : new long[][] {{band, size}, {0, band}}) {
      for (long off = span[0], n = 0; off < span[1] && n <= limit; off++, n++) {
        BigInteger v = cidr.base().value().add(BigInteger.valueOf(off + 1));
        if (!taken.contains(v)) {
          return new Ip(v, cidr.base().v6());
        }
      }
    }
    throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid("spec.clusterIPs",
        ListValue.of(List.of()), "failed to allocate IP: range is full")));
  }

  private static Set<Long> takenPorts(List<MapValue> others) {
    Set<Long> out = new HashSet<>();
    for (MapValue o : others) {
      out.addAll(ServiceStrategy.nodePorts(o));
      if (Nested.getOrNull(o, "spec", "healthCheckNodePort") instanceof IntegerValue h
          && h.value() != 0) {
        out.add(h.value());
      }
    }
    return out;
  }

  private static MapValue nodePorts(MapValue svc, Optional<MapValue> old, int[] range,
      Set<Long> taken, boolean dryRun, String name) {
    Set<Long> held = new HashSet<>();
    old.ifPresent(o -> {
      held.addAll(ServiceStrategy.nodePorts(o));
      if (Nested.getOrNull(o, "spec", "healthCheckNodePort") instanceof IntegerValue h) {
        held.add(h.value());
      }
    });
    Set<Long> mine = new HashSet<>(ServiceStrategy.nodePorts(svc));
    MapValue r = svc;
    if (ServiceStrategy.needsNodePort(svc)) {
      List<MapValue> ports = items(Nested.getOrNull(svc, "spec", "ports"));
      ListValue.Builder out = ListValue.builder(ports.size());
      // kube gives one service port number one node port whatever the protocol
      Map<Value, Long> byPort = new HashMap<>();
      for (int i = 0; i < ports.size(); i++) {
        MapValue p = ports.get(i);
        long np = p.getOrNull("nodePort") instanceof IntegerValue n ? n.value() : 0;
        if (np != 0) {
          if (!held.contains(np)) {
            checkPort(np, range, taken, index("spec.ports", i) + ".nodePort", "", name);
          }
        } else {
          Long same = byPort.get(p.getOrNull("port"));
          np = same != null ? same : dryRun ? range[0] : nextFreePort(range, taken, mine, name);
          mine.add(np);
          p = p.with("nodePort", Value.of(np));
        }
        byPort.putIfAbsent(p.getOrNull("port"), np);
        out.add(p);
      }
      r = Nested.set(r, out.build(), "spec", "ports");
    }
    if (ServiceStrategy.needsHealthCheckNodePort(r)) {
      long hc = Nested.getOrNull(r, "spec", "healthCheckNodePort") instanceof IntegerValue h
          ? h.value() : 0;
      if (hc == 0) {
        hc = dryRun ? range[0] : nextFreePort(range, taken, mine, name);
        r = Nested.set(r, Value.of(hc), "spec", "healthCheckNodePort");
      } else if (!held.contains(hc)) {
        checkPort(hc, range, taken, "spec.healthCheckNodePort",
            "failed to allocate requested HealthCheck NodePort " + hc + ": ", name);
      }
    }
    return r;
  }

  private static void checkPort(long port, int[] range, Set<Long> taken, String path,
      String prefix, String name) {
    String problem = null;
    if (port < range[0] || port > range[1]) {
      problem = "provided port is not in the valid range. The range of valid ports is "
          + range[0] + "-" + range[1];
    } else if (taken.contains(port)) {
      problem = "provided port is already allocated";
    }
    if (problem != null) {
      throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(path,
          Value.of(port), prefix + problem)));
    }
  }

  private static long nextFreePort(int[] range, Set<Long> taken, Set<Long> mine, String name) {
    for (long p = range[0]; p <= range[1]; p++) {
      if (!taken.contains(p) && !mine.contains(p)) {
        return p;
      }
    }
    throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid("spec.ports",
        ListValue.of(List.of()), "failed to allocate a nodePort: range is full")));
  }
}
