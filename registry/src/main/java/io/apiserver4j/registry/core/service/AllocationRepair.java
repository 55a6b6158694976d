/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.IpAddresses.Ip;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.Allocation;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusReason;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What kube-apiserver does for Service allocation when it starts: the default ServiceCIDR
 * {@code kubernetes} of {@code --service-cluster-ip-range}, Ready (the default ServiceCIDR
 * controller), one pass of the ClusterIP repair ({@code controller/repairip.go}: an IPAddress
 * for every Service address that has none; an IPAddress of the allocator whose Service is gone
 * or holds another address is deleted once it is older than kube's 60 s grace period, so that
 * a Service another server is creating keeps its address) and one pass of the node port repair
 * ({@code portallocator/controller/repair.go}: the stored bitmap gains every port a Service
 * holds; ports no Service holds are kept on this first pass, as kube flags leaks before it frees
 * them, and the bitmap is written with compare-and-swap against the state read before the
 * Services were listed, re-run when another server wrote in between). Failures are logged: a
 * server starts whatever the repair found.
 */
final class AllocationRepair {
  static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");
  static final GroupVersionResource SERVICE_CIDRS =
      new GroupVersionResource("networking.k8s.io", "v1", "servicecidrs");
  /** kube's {@code DefaultServiceCIDRName}. */
  static final String DEFAULT_SERVICE_CIDR = "kubernetes";
  /** kube's repairip {@code gracePeriod}. */
  static final Duration GRACE_PERIOD = Duration.ofSeconds(60);
  private static final int MAX_PORT_REPAIR_ATTEMPTS = 16;

  private final ClusterIpAllocator ips;
  private final NodePortAllocator ports;
  private final Allocation allocation;

  AllocationRepair(ClusterIpAllocator ips, NodePortAllocator ports, Allocation allocation) {
    this.ips = ips;
    this.ports = ports;
    this.allocation = allocation;
  }

  void run() {
    try {
      defaultServiceCidr();
      repairIps();
      repairPorts();
    } catch (RuntimeException e) {
      ServiceAllocator.LOG.error("the Service allocation repair failed", e);
    }
  }

  private ApiResponse call(ApiRequest.Builder b) {
    return allocation.loopback(b.userAgent(ClusterIpAllocator.USER_AGENT).build());
  }

  /** kube's default ServiceCIDR controller, once. */
  private void defaultServiceCidr() {
    String cidr = ips.cidr().toString();
    ApiResponse got = call(ApiRequest.builder(ApiRequest.Verb.GET, SERVICE_CIDRS)
        .name(DEFAULT_SERVICE_CIDR));
    if (got.code() == 404 && got.failure().orElseThrow().reason() == StatusReason.NOT_FOUND) {
      ServiceAllocator.LOG.info("Creating default ServiceCIDR with CIDRs: [{}]", cidr);
      got = call(ApiRequest.builder(ApiRequest.Verb.CREATE, SERVICE_CIDRS).body(MapValue.builder()
          .put("apiVersion", Value.of("networking.k8s.io/v1"))
          .put("kind", Value.of("ServiceCIDR"))
          .put("metadata", MapValue.builder().put("name", Value.of(DEFAULT_SERVICE_CIDR))
              .build())
          .put("spec", MapValue.builder().put("cidrs", ListValue.of(List.of(Value.of(cidr))))
              .build())
          .build()));
      if (!got.isSuccess() && got.failure().orElseThrow().reason()
          == StatusReason.ALREADY_EXISTS) {
        got = call(ApiRequest.builder(ApiRequest.Verb.GET, SERVICE_CIDRS)
            .name(DEFAULT_SERVICE_CIDR));
      }
    }
    if (!got.isSuccess()) {
      ServiceAllocator.LOG.warn("cannot read or create the default ServiceCIDR: {}",
          got.failure().orElseThrow().message());
      return;
    }
    MapValue sc = got.body();
    if (Meta.hasMeta(sc, "deletionTimestamp")
        || !Nested.list(sc, "spec", "cidrs").equals(List.of(Value.of(cidr)))) {
      if (!Meta.hasMeta(sc, "deletionTimestamp")) {
        ServiceAllocator.LOG.info("Inconsistent ServiceCIDR status for {}, controller"
            + " configuration: [{}], ServiceCIDR configuration: {}", DEFAULT_SERVICE_CIDR, cidr,
            Nested.list(sc, "spec", "cidrs"));
      }
      return;
    }
    for (Value c : Nested.list(sc, "status", "conditions")) {
      if (c instanceof MapValue m && Value.of("Ready").equals(m.getOrNull("type"))
          && !Value.of("Unknown").equals(m.getOrNull("status"))) {
        return; // Ready True needs nothing; Ready False is the administrator's to fix
      }
    }
    MapValue ready = MapValue.builder()
        .put("type", Value.of("Ready"))
        .put("status", Value.of("True"))
        .put("lastTransitionTime", Value.of(allocation.now().truncatedTo(
            java.time.temporal.ChronoUnit.SECONDS).toString()))
        .put("reason", Value.of(""))
        .put("message", Value.of("Kubernetes default Service CIDR is ready"))
        .build();
    ApiResponse r = call(ApiRequest.builder(ApiRequest.Verb.UPDATE, SERVICE_CIDRS)
        .name(DEFAULT_SERVICE_CIDR).subresource("status")
        .body(Nested.set(sc, ListValue.of(List.of(ready)), "status", "conditions")));
    if (!r.isSuccess()) {
      ServiceAllocator.LOG.info("error updating default ServiceCIDR status: {}",
          r.failure().orElseThrow().message());
    }
  }

  private List<MapValue> list(GroupVersionResource resource) {
    ApiResponse r = call(ApiRequest.builder(ApiRequest.Verb.LIST, resource));
    if (!r.isSuccess()) {
      throw new IllegalStateException("cannot list " + resource + ": "
          + r.failure().orElseThrow().message());
    }
    List<MapValue> out = new ArrayList<>();
    for (Value v : Nested.list(r.body(), "items")) {
      if (v instanceof MapValue m) {
        out.add(m);
      }
    }
    return out;
  }

  /** One pass of kube's repairip. */
  private void repairIps() {
    Map<String, MapValue> addresses = new HashMap<>();
    for (MapValue a : list(ClusterIpAllocator.IP_ADDRESSES)) {
      addresses.put(Meta.metaString(a, "name"), a);
    }
    Map<String, MapValue> holders = new HashMap<>();
    for (MapValue svc : list(SERVICES)) {
      for (String ip : ServiceAllocator.heldIps(svc)) {
        Ip parsed = IpAddresses.parse(ip).orElseThrow();
        if (ips.notInRange(parsed).isPresent()) {
          continue;
        }
        holders.put(parsed.toString(), svc);
        if (!addresses.containsKey(parsed.toString())) {
          ServiceAllocator.LOG.info("Cluster IP {} is not allocated; repairing", ip);
          ApiResponse r = ips.create(parsed, svc, allocation);
          if (!r.isSuccess() && r.failure().orElseThrow().reason()
              != StatusReason.ALREADY_EXISTS) {
            ServiceAllocator.LOG.warn("cannot repair Cluster IP {}: {}", ip,
                r.failure().orElseThrow().message());
          }
        }
      }
    }
    Instant now = allocation.now();
    for (MapValue a : addresses.values()) {
      String name = Meta.metaString(a, "name");
      if (!ClusterIpAllocator.MANAGED_BY.equals(Nested.str(a, "metadata", "labels",
          ClusterIpAllocator.MANAGED_BY_LABEL))) {
        continue;
      }
      MapValue holder = holders.get(name);
      String refNs = Nested.str(a, "spec", "parentRef", "namespace");
      String refName = Nested.str(a, "spec", "parentRef", "name");
      if (holder != null && Meta.metaString(holder, "namespace").equals(refNs)
          && Meta.metaString(holder, "name").equals(refName)) {
        continue;
      }
      if (created(a).plus(GRACE_PERIOD).isBefore(now)) {
        ServiceAllocator.LOG.info("IPAddress {} references no Service holding it; cleaning up",
            name);
        ips.release(name, allocation);
      }
    }
  }

  private static Instant created(MapValue o) {
    try {
      return Instant.parse(Meta.metaString(o, "creationTimestamp"));
    } catch (DateTimeParseException e) {
      return Instant.MAX.minus(GRACE_PERIOD); // unknown age: keep it
    }
  }

  /** One pass of kube's node port repair. */
  private void repairPorts() {
    for (int i = 0; i < MAX_PORT_REPAIR_ATTEMPTS; i++) {
      // the bitmap first, then the Services: an allocation in between fails the swap
      NodePortAllocator.Snapshot snapshot = ports.snapshot(allocation);
      TreeSet<Long> rebuilt = new TreeSet<>(snapshot.ports());
      boolean changed = snapshot.resourceVersion() == 0;
      for (MapValue svc : list(SERVICES)) {
        for (long p : ServiceAllocator.heldPorts(svc)) {
          if (ports.notInRange(p).isPresent()) {
            ServiceAllocator.LOG.warn("the node port {} of Service {}/{} is not within the port"
                + " range {}; please recreate", p, Meta.metaString(svc, "namespace"),
                Meta.metaString(svc, "name"), ports.range());
          } else if (rebuilt.add(p)) {
            ServiceAllocator.LOG.info("the node port {} for Service {}/{} is not allocated;"
                + " repairing", p, Meta.metaString(svc, "namespace"),
                Meta.metaString(svc, "name"));
            changed = true;
          }
        }
      }
      Set<Long> outOfRange = new TreeSet<>();
      for (long p : rebuilt) {
        if (ports.notInRange(p).isPresent()) {
          outOfRange.add(p);
        }
      }
      changed |= !outOfRange.isEmpty();
      if (!changed || ports.replace(snapshot, rebuilt, allocation)) {
        return;
      }
    }
    ServiceAllocator.LOG.warn("the node port repair lost every race; it runs again at the next"
        + " start");
  }
}
