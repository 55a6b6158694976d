/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.IpAddresses.Cidr;
import io.apiserver4j.apimachinery.validation.IpAddresses.Ip;
import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.Allocation;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.storage.CollectionKey;
import io.apiserver4j.storage.ListOptions;
import io.apiserver4j.storage.StoredObject;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * kube's ClusterIP allocator of 1.33+ ({@code pkg/registry/core/service/ipallocator}, the
 * MultiCIDRServiceAllocator): an allocated address is an {@code IPAddress} object named by the
 * address, with kube's labels and a parent reference to its Service, created through the server
 * as kube's loopback client does. Creating it is the claim: the store's create is atomic, so two
 * servers on one store never hand out one address. A dynamic address is searched from a random
 * offset of the upper (dynamic) band, then of the lower (static) band (KEP-3070), skipping the
 * addresses that already have an IPAddress and moving on after a lost race. Thread-safe.
 */
final class ClusterIpAllocator {
  static final GroupVersionResource IP_ADDRESSES =
      new GroupVersionResource("networking.k8s.io", "v1", "ipaddresses");
  /** kube's {@code networkingv1.LabelIPAddressFamily}. */
  static final String FAMILY_LABEL = "ipaddress.kubernetes.io/ip-family";
  /** kube's {@code networkingv1.LabelManagedBy}. */
  static final String MANAGED_BY_LABEL = "ipaddress.kubernetes.io/managed-by";
  /** kube's ipallocator {@code ControllerName}. */
  static final String MANAGED_BY = "ipallocator.k8s.io";
  /** What kube-apiserver's loopback client sends. */
  static final String USER_AGENT = "kube-apiserver/v1.36.0 (linux/amd64) kubernetes";

  /** kube's {@code ErrAllocated}. */
  static final String ERR_ALLOCATED = "provided IP is already allocated";
  /** kube's {@code ErrFull}. */
  static final String ERR_FULL = "range is full";
  /**
   * kube's {@code ErrMismatchedNetwork}: what the MetaAllocator answers for a requested address
   * no ServiceCIDR can hand out (outside it, or its network or IPv4 broadcast address).
   */
  static final String ERR_MISMATCHED_NETWORK =
      "the provided network does not match the current range";

  private final Cidr cidr;
  private final BigInteger first;
  private final BigInteger last;
  private final BigInteger offsetAddress;
  private final long rangeOffset;

  ClusterIpAllocator(Cidr cidr) {
    this.cidr = cidr;
    BigInteger base = cidr.base().value();
    this.first = base.add(BigInteger.ONE);
    // IPv6 hands out the last address too; IPv4 never its broadcast address
    BigInteger broadcast = base.add(cidr.size()).subtract(BigInteger.ONE);
    this.last = cidr.base().v6() ? broadcast : broadcast.subtract(BigInteger.ONE);
    this.rangeOffset = rangeOffset(cidr.size());
    this.offsetAddress = first.add(BigInteger.valueOf(rangeOffset));
  }

  /**
   * kube's {@code calculateRangeOffset}: the size of the static band at the bottom of the
   * range, {@code min(max(16, size/16), 256)} of the CIDR's size, none for 16 addresses or less.
   */
  static long rangeOffset(BigInteger cidrSize) {
    if (cidrSize.compareTo(BigInteger.valueOf(16)) <= 0) {
      return 0;
    }
    BigInteger offset = cidrSize.divide(BigInteger.valueOf(16));
    return offset.max(BigInteger.valueOf(16)).min(BigInteger.valueOf(256)).longValue();
  }

  Cidr cidr() {
    return cidr;
  }

  /** The IP family name of the range. */
  String family() {
    return cidr.base().v6() ? "IPv6" : "IPv4";
  }

  /**
   * kube's {@code ErrNotInRange} text when {@code ip} is outside the allocatable addresses.
   */
  Optional<String> notInRange(Ip ip) {
    if (ip.v6() == cidr.base().v6() && ip.value().compareTo(first) >= 0
        && ip.value().compareTo(last) <= 0) {
      return Optional.empty();
    }
    return Optional.of("the provided IP (" + ip + ") is not in the valid range. The range of"
        + " valid IPs is " + cidr);
  }

  /**
   * Claims {@code ip} for the Service (kube's {@code MetaAllocator.AllocateService}).
   *
   * @return empty when claimed, else kube's error text
   */
  Optional<String> allocate(Ip ip, MapValue svc, Allocation allocation) {
    if (notInRange(ip).isPresent()) {
      return Optional.of(ERR_MISMATCHED_NETWORK);
    }
    ApiResponse r = create(ip, svc, allocation);
    if (r.isSuccess()) {
      return Optional.empty();
    }
    return Optional.of(r.failure().orElseThrow().reason() == StatusReason.ALREADY_EXISTS
        ? ERR_ALLOCATED : r.failure().orElseThrow().message());
  }

  /**
   * Claims a free address for the Service (kube's {@code AllocateNextService}).
   *
   * @return the address, or empty with {@code error[0]} set to kube's error text
   */
  Optional<Ip> allocateNext(MapValue svc, Allocation allocation, String[] error) {
    Set<BigInteger> known = known(allocation);
    BigInteger upper = last.subtract(offsetAddress).add(BigInteger.ONE);
    for (BigInteger[] band : new BigInteger[][] {{offsetAddress, upper},
        {first, BigInteger.valueOf(rangeOffset)}}) {
      if (band[1].signum() <= 0) {
        continue;
      }
      BigInteger start = randomBelow(band[1], allocation);
      for (BigInteger i = BigInteger.ZERO; i.compareTo(band[1]) < 0; i = i.add(BigInteger.ONE)) {
        BigInteger v = band[0].add(start.add(i).mod(band[1]));
        if (known.contains(v)) {
          continue;
        }
        Ip ip = new Ip(v, cidr.base().v6());
        ApiResponse r = create(ip, svc, allocation);
        if (r.isSuccess()) {
          return Optional.of(ip);
        }
        if (r.failure().orElseThrow().reason() != StatusReason.ALREADY_EXISTS) {
          error[0] = r.failure().orElseThrow().message();
          return Optional.empty();
        }
        // a mid-air collision with another writer: try the next address
      }
    }
    error[0] = ERR_FULL;
    return Optional.empty();
  }

  /** Gives {@code ip} back (kube's {@code Release}): deletes its IPAddress, whatever it says. */
  void release(String ip, Allocation allocation) {
    ApiResponse r = allocation.loopback(ApiRequest.builder(ApiRequest.Verb.DELETE, IP_ADDRESSES)
        .name(ip).userAgent(USER_AGENT).build());
    if (!r.isSuccess() && r.failure().orElseThrow().reason() != StatusReason.NOT_FOUND) {
      ServiceAllocator.LOG.info("error releasing ip {}: {}", ip, r.failure().orElseThrow()
          .message());
    }
  }

  /** Creates the IPAddress of {@code ip} for {@code svc} (kube's {@code createIPAddress}). */
  ApiResponse create(Ip ip, MapValue svc, Allocation allocation) {
    return allocation.loopback(ApiRequest.builder(ApiRequest.Verb.CREATE, IP_ADDRESSES)
        .body(ipAddress(ip.toString(), family(), Meta.metaString(svc, "namespace"),
            Meta.metaString(svc, "name")))
        .userAgent(USER_AGENT).build());
  }

  static MapValue ipAddress(String name, String family, String namespace, String service) {
    MapValue.Builder ref = MapValue.builder().put("resource", Value.of("services"));
    if (!namespace.isEmpty()) {
      ref.put("namespace", Value.of(namespace));
    }
    ref.put("name", Value.of(service));
    return MapValue.builder()
        .put("apiVersion", Value.of("networking.k8s.io/v1"))
        .put("kind", Value.of("IPAddress"))
        .put("metadata", MapValue.builder().put("name", Value.of(name))
            .put("labels", MapValue.builder().put(FAMILY_LABEL, Value.of(family))
                .put(MANAGED_BY_LABEL, Value.of(MANAGED_BY)).build()).build())
        .put("spec", MapValue.builder().put("parentRef", ref.build()).build())
        .build();
  }

  /** The addresses of this range that have an IPAddress (kube's lister; a hint, not a claim). */
  private Set<BigInteger> known(Allocation allocation) {
    Set<BigInteger> out = new HashSet<>();
    for (StoredObject o : allocation.storage().list(CollectionKey.all(
        IP_ADDRESSES.group(), IP_ADDRESSES.resource()), ListOptions.all()).items()) {
      IpAddresses.parse(Meta.metaString(o.object(), "name"))
          .filter(ip -> ip.v6() == cidr.base().v6()).ifPresent(ip -> out.add(ip.value()));
    }
    return out;
  }

  private static BigInteger randomBelow(BigInteger bound, Allocation allocation) {
    if (bound.bitLength() < 63) {
      return BigInteger.valueOf(allocation.random().nextLong(bound.longValue()));
    }
    return new BigInteger(bound.bitLength() + 8, allocation.random()).mod(bound);
  }
}
