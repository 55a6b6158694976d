/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.Allocated;
import io.apiserver4j.apiserver.Allocation;
import io.apiserver4j.apiserver.Allocator;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.ServiceRanges;

/**
 * kube's Service allocators on a single-stack cluster ({@code pkg/registry/core/service/storage}
 * {@code alloc.go}): cluster IPs from {@code --service-cluster-ip-range} as IPAddress objects
 * ({@link ClusterIpAllocator}), node ports and health check node ports from
 * {@code --service-node-port-range} in a stored bitmap ({@link NodePortAllocator}),
 * {@code ipFamilies}/{@code ipFamilyPolicy} defaults, and kube's errors for taken or
 * out-of-range values. What a create or update claims is given back when the write fails; what
 * an update or delete stops holding is given back once it is stored. A dry run claims nothing,
 * as kube's dry-run allocators: a requested cluster IP is checked against the range only (a
 * dynamic one is the range's network address), a requested node port against the stored ports
 * only (a dynamic one is kube's dummy, 32769 and up). A requested address outside the range is
 * kube's MetaAllocator {@code ErrMismatchedNetwork}. At start it writes the default ServiceCIDR and repairs both pools
 * ({@link AllocationRepair}). Stateless; holds no lock.
 */
final class ServiceAllocator implements Allocator {
  static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ServiceAllocator.class);
  private static final GroupKind SERVICE = new GroupKind("", "Service");

  static final ServiceAllocator INSTANCE = new ServiceAllocator();

  private ServiceAllocator() {}

  static ClusterIpAllocator ips(Allocation allocation) {
    return new ClusterIpAllocator(IpAddresses.parseCidr(allocation.setting(
        ServiceRanges.CLUSTER_IP_RANGE_FLAG).orElse(ServiceRanges.DEFAULT_CLUSTER_IP_RANGE))
        .orElseThrow());
  }

  static NodePortAllocator ports(Allocation allocation) {
    return new NodePortAllocator(ServiceRanges.ports(allocation.setting(
        ServiceRanges.NODE_PORT_RANGE_FLAG).orElse(ServiceRanges.DEFAULT_NODE_PORT_RANGE)));
  }

  @Override
  public Allocated allocate(MapValue object, Optional<MapValue> old, Allocation allocation) {
    MapValue r = old.isPresent()
        ? ServiceStrategy.dropTypeDependentFields(ServiceStrategy.normalizeClusterIps(
            ServiceStrategy.patchAllocatedValues(object, old.get()), old.get()), old.get())
        : ServiceStrategy.normalizeClusterIps(object, null);
    ClusterIpAllocator ips = ips(allocation);
    NodePortAllocator ports = ports(allocation);
    Claims claims = new Claims(ips, ports, allocation);
    if (ServiceStrategy.needsClusterIp(r)) {
      try {
        r = allocate(r, old, allocation, ips, ports, claims);
      } catch (RuntimeException e) {
        claims.revert();
        throw e;
      }
    }
    if (allocation.dryRun()) {
      return Allocated.of(r);
    }
    // what the stored object held and the new one does not goes back once the new one is stored
    Set<String> dropIps = new HashSet<>();
    Set<Long> dropPorts = new HashSet<>();
    if (old.isPresent()) {
      dropIps.addAll(heldIps(old.get()));
      dropIps.removeAll(heldIps(r));
      dropPorts.addAll(heldPorts(old.get()));
      dropPorts.removeAll(heldPorts(r));
    }
    return Allocated.of(r, () -> release(dropIps, dropPorts, allocation), claims::revert);
  }

  @Override
  public void release(MapValue deleted, Allocation allocation) {
    release(heldIps(deleted), heldPorts(deleted), allocation);
  }

  @Override
  public void start(Allocation allocation) {
    new AllocationRepair(ips(allocation), ports(allocation), allocation).run();
  }

  private static void release(Set<String> ips, Set<Long> ports, Allocation allocation) {
    ClusterIpAllocator ipAllocator = ips(allocation);
    for (String ip : ips) {
      // kube's MetaAllocator releases only addresses of a range it serves
      if (IpAddresses.parse(ip).filter(a -> ipAllocator.notInRange(a).isEmpty()).isPresent()) {
        ipAllocator.release(ip, allocation);
      }
    }
    ports(allocation).release(ports, allocation);
  }

  /** The addresses a Service holds (not {@code None}). */
  static Set<String> heldIps(MapValue svc) {
    Set<String> out = new HashSet<>();
    for (Value v : Nested.list(svc, "spec", "clusterIPs")) {
      if (v instanceof StringValue s && IpAddresses.parse(s.value()).isPresent()) {
        out.add(s.value());
      }
    }
    return out;
  }

  /** The node ports and health check node port a Service holds. */
  static Set<Long> heldPorts(MapValue svc) {
    Set<Long> out = new HashSet<>(ServiceStrategy.nodePorts(svc));
    if (Nested.getOrNull(svc, "spec", "healthCheckNodePort") instanceof IntegerValue h
        && h.value() != 0) {
      out.add(h.value());
    }
    out.remove(0L);
    return out;
  }

  private static MapValue allocate(MapValue svc, Optional<MapValue> old, Allocation allocation,
      ClusterIpAllocator ipAllocator, NodePortAllocator portAllocator, Claims claims) {
    Cidr cidr = ipAllocator.cidr();
    String name = Meta.metaString(svc, "name");
    MapValue r = families(svc, cidr, name);
    Set<String> oldIps = old.map(ServiceAllocator::heldIps).orElse(Set.of());
    List<Value> ips = Nested.list(r, "spec", "clusterIPs");
    if (ips.isEmpty()) {
      Ip ip;
      if (allocation.dryRun()) {
        ip = cidr.base();
      } else {
        String[] error = new String[1];
        ip = ipAllocator.allocateNext(r, allocation, error).orElseThrow(() ->
            StatusErrors.internal("failed to allocate a serviceIP: " + error[0]));
        claims.ips.add(ip.toString());
      }
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
        Optional<String> problem = allocation.dryRun() ? ipAllocator.notInRange(ip.get())
            : ipAllocator.allocate(ip.get(), r, allocation);
        if (problem.isPresent()) {
          throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(
              "spec.clusterIPs", ListValue.of(ips), "failed to allocate IP " + requested + ": "
                  + problem.get())));
        }
        if (!allocation.dryRun()) {
          claims.ips.add(requested);
        }
      }
    }
    if (ServiceStrategy.needsNodePort(r) || ServiceStrategy.needsHealthCheckNodePort(r)) {
      r = nodePorts(r, old, portAllocator, allocation, claims, name);
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

  private static MapValue nodePorts(MapValue svc, Optional<MapValue> old,
      NodePortAllocator allocator, Allocation allocation, Claims claims, String name) {
    Set<Long> held = old.map(ServiceAllocator::heldPorts).orElse(Set.of());
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
          claim(np, held, allocator, allocation, claims, index("spec.ports", i) + ".nodePort",
              "", name);
        } else {
          Long same = byPort.get(p.getOrNull("port"));
          np = same != null ? same : next(allocator, allocation, claims,
              "failed to allocate a nodePort: ");
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
        hc = next(allocator, allocation, claims, "failed to allocate a HealthCheck NodePort 0: ");
        r = Nested.set(r, Value.of(hc), "spec", "healthCheckNodePort");
      } else {
        claim(hc, held, allocator, allocation, claims, "spec.healthCheckNodePort",
            "failed to allocate requested HealthCheck NodePort " + hc + ": ", name);
      }
    }
    return r;
  }

  private static void claim(long port, Set<Long> held, NodePortAllocator allocator,
      Allocation allocation, Claims claims, String path, String prefix, String name) {
    if (held.contains(port) || claims.ports.contains(port)) {
      return;
    }
    Optional<String> problem;
    if (allocation.dryRun()) {
      // kube's dry-run PortAllocationOperation: taken or not, never the range
      problem = claims.dryRunTaken(allocator).contains(port)
          ? Optional.of(NodePortAllocator.ERR_ALLOCATED) : Optional.empty();
    } else {
      problem = allocator.allocate(port, allocation);
    }
    if (problem.isPresent()) {
      throw StatusErrors.invalid(SERVICE, name, List.of(FieldError.invalid(path,
          Value.of(port), prefix + problem.get())));
    }
    claims.ports.add(port);
  }

  private static long next(NodePortAllocator allocator, Allocation allocation, Claims claims,
      String prefix) {
    if (allocation.dryRun()) {
      // kube's dry-run PortAllocationOperation answers a dummy: one above the highest port this
      // request holds, 32769 for its first
      long port = claims.ports.stream().mapToLong(Long::longValue).max().orElse(32768L) + 1;
      claims.ports.add(port);
      return port;
    }
    long port = allocator.allocateNext(allocation).orElseThrow(() ->
        StatusErrors.internal(prefix + NodePortAllocator.ERR_FULL));
    claims.ports.add(port);
    return port;
  }

  /** What one request claimed, given back when its write fails. */
  private static final class Claims {
    final List<String> ips = new ArrayList<>();
    final List<Long> ports = new ArrayList<>();
    private final ClusterIpAllocator ipAllocator;
    private final NodePortAllocator portAllocator;
    private final Allocation allocation;

    Claims(ClusterIpAllocator ipAllocator, NodePortAllocator portAllocator,
        Allocation allocation) {
      this.ipAllocator = ipAllocator;
      this.portAllocator = portAllocator;
      this.allocation = allocation;
    }

    private java.util.TreeSet<Long> dryRunTaken;

    /** The stored ports, read once per dry run. */
    Set<Long> dryRunTaken(NodePortAllocator allocator) {
      if (dryRunTaken == null) {
        dryRunTaken = allocator.snapshot(allocation).ports();
      }
      return dryRunTaken;
    }

    void revert() {
      if (allocation.dryRun()) {
        return; // a dry run claimed nothing
      }
      for (String ip : ips) {
        ipAllocator.release(ip, allocation);
      }
      portAllocator.release(ports, allocation);
    }
  }
}
