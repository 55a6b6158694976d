/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.endpoints;

import static io.apiserver4j.apimachinery.validation.GroupRules.empty;
import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * core/v1 Endpoints (kube's pkg/registry/core/endpoint): ports default to TCP, and
 * {@code ValidateEndpoints} checks subsets, addresses (kube's {@code ValidateEndpointIP}) and
 * ports, with kube's field paths and messages.
 */
public final class EndpointsStrategy {
  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  private EndpointsStrategy() {}

  /** The Endpoints strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateListItems(o, s -> Nested.updateListItems(s,
            p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports"), "subsets"))
        .validator((o, old) -> validate(o))
        .build();
  }

  static List<FieldError> validate(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> subsets = maps(o, "subsets");
    for (int i = 0; i < subsets.size(); i++) {
      MapValue ss = subsets.get(i);
      String at = "subsets[" + i + "]";
      if (empty(ss, "addresses") && empty(ss, "notReadyAddresses")) {
        errs.add(FieldError.required(at, "must specify `addresses` or `notReadyAddresses`"));
      }
      for (String list : List.of("addresses", "notReadyAddresses")) {
        List<MapValue> addrs = maps(ss, list);
        for (int a = 0; a < addrs.size(); a++) {
          endpointAddress(errs, addrs.get(a), at + "." + list + "[" + a + "]");
        }
      }
      List<MapValue> ports = maps(ss, "ports");
      for (int p = 0; p < ports.size(); p++) {
        endpointPort(errs, ports.get(p), ports.size() > 1, at + ".ports[" + p + "]");
      }
    }
    return errs;
  }

  private static void endpointAddress(List<FieldError> errs, MapValue addr, String at) {
    String ip = str(addr, "ip");
    GroupRules.validIp(errs, at + ".ip", ip);
    String hostname = str(addr, "hostname");
    if (!hostname.isEmpty()) {
      for (String msg : MetaValidation.dns1123Label(hostname)) {
        errs.add(FieldError.invalid(at + ".hostname", Value.of(hostname), msg));
      }
    }
    if (addr.getOrNull("nodeName") instanceof StringValue node) {
      for (String msg : MetaValidation.dns1123Subdomain(node.value())) {
        errs.add(FieldError.invalid(at + ".nodeName", node, msg));
      }
    }
    // kube's ValidateEndpointIP: addresses that cannot be a pod's or a node's
    Optional<byte[]> parsed = GroupRules.parseIp(ip);
    if (parsed.isEmpty()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip), "must be a valid IP address"));
      return;
    }
    java.net.InetAddress a;
    try {
      a = java.net.InetAddress.getByAddress(parsed.get());
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
    if (a.isAnyLocalAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip), "may not be unspecified (" + ip + ")"));
    }
    // the server's own "kubernetes" Endpoints, at a loopback advertise address, is a system
    // write this does not see (kube's reconciler writes it to storage)
    if (a.isLoopbackAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    if (a.isLinkLocalAddress()) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    byte[] b = parsed.get();
    boolean linkLocalMulticast = b.length == 4 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0
        : (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
    if (linkLocalMulticast) {
      errs.add(FieldError.invalid(at + ".ip", Value.of(ip),
          "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
    }
  }

  private static void endpointPort(List<FieldError> errs, MapValue port, boolean requireName,
      String at) {
    String name = str(port, "name");
    if (requireName && name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", ""));
    } else if (!name.isEmpty()) {
      for (String msg : MetaValidation.dns1123Label(name)) {
        errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
      }
    }
    long p = GroupRules.integer(port, "port").orElse(0L);
    if (p < 1 || p > 65535) {
      errs.add(FieldError.invalid(at + ".port", Value.of(p),
          "must be between 1 and 65535, inclusive"));
    }
    String protocol = str(port, "protocol");
    if (protocol.isEmpty()) {
      errs.add(FieldError.required(at + ".protocol", ""));
    } else if (!PROTOCOLS.contains(protocol)) {
      errs.add(FieldError.notSupported(at + ".protocol", Value.of(protocol), PROTOCOLS));
    }
  }
}
