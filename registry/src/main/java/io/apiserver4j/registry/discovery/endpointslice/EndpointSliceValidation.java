/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.discovery.endpointslice;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.IpAddresses;
import static io.apiserver4j.apimachinery.validation.GroupValidation.list;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IpAddresses;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code pkg/apis/discovery/validation} of an EndpointSlice: the address type
 * (immutable), the endpoints' addresses as that type asks and their hostnames, the ports.
 */
final class EndpointSliceValidation {
  private static final List<String> ADDRESS_TYPES = List.of("FQDN", "IPv4", "IPv6");
  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  private EndpointSliceValidation() {}

  static List<FieldError> validate(MapValue slice, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    String type = str(slice, "addressType");
    List<String> valid = old.isPresent() ? List.of("FQDN", "IP", "IPv4", "IPv6") : ADDRESS_TYPES;
    if (type.isEmpty()) {
      errs.add(FieldError.required("addressType", ""));
    } else if (!valid.contains(type)) {
      errs.add(FieldError.notSupported("addressType", Value.of(type), valid));
    }
    endpoints(errs, list(slice, "endpoints"), type);
    ports(errs, list(slice, "ports"));
    old.ifPresent(o -> KubeValidation.immutable(Value.of(type),
        Value.of(str(o, "addressType")), "addressType", errs));
    return errs;
  }

  private static FieldError tooMany(String field, int count, int max) {
    return new FieldError(FieldError.Type.TOO_MANY, field, Optional.of(Value.of(count)),
        "must have at most " + max + " items");
  }

  private static void endpoints(List<FieldError> errs, List<Value> endpoints, String type) {
    if (endpoints.size() > 1000) {
      errs.add(tooMany("endpoints", endpoints.size(), 1000));
      return;
    }
    for (int i = 0; i < endpoints.size(); i++) {
      String at = "endpoints[" + i + "]";
      List<Value> addresses = list(endpoints.get(i), "addresses");
      if (addresses.isEmpty()) {
        errs.add(FieldError.required(at + ".addresses", "must contain at least 1 address"));
      } else if (addresses.size() > 100) {
        errs.add(tooMany(at + ".addresses", addresses.size(), 100));
      }
      for (int j = 0; j < addresses.size(); j++) {
        String a = addresses.get(j) instanceof StringValue s ? s.value() : "";
        address(errs, at + ".addresses[" + j + "]", a, type);
      }
      if (endpoints.get(i) instanceof MapValue e
          && e.getOrNull("hostname") instanceof StringValue h) {
        for (String msg : MetaValidation.dns1123Label(h.value())) {
          errs.add(FieldError.invalid(at + ".hostname", h, msg));
        }
      }
    }
  }

  private static void address(List<FieldError> errs, String at, String a, String type) {
    switch (type) {
      case "IP" -> {
        if (IpAddresses.parse(a) == null) {
          errs.add(FieldError.invalid(at, Value.of(a), GroupValidation.INVALID_IP));
        }
      }
      case "IPv4", "IPv6" -> {
        boolean ok = type.equals("IPv4") ? IpAddresses.isIpv4(a) : IpAddresses.isIpv6(a);
        if (!ok) {
          errs.add(FieldError.invalid(at, Value.of(a), "must be a valid " + type + " address"));
        }
        nonSpecialIp(errs, at, a);
      }
      case "FQDN" -> fqdn(errs, at, a);
      default -> { }
    }
  }

  /**
   * core's {@code ValidateNonSpecialIP}. The server's own {@code kubernetes} EndpointSlice,
   * which may point at a loopback advertise address, is a system write this does not see.
   */
  private static void nonSpecialIp(List<FieldError> errs, String at, String a) {
    byte[] ip = IpAddresses.parse(a);
    if (ip == null) {
      errs.add(FieldError.invalid(at, Value.of(a), "must be a valid IP address"));
      return;
    }
    byte[] v4 = ip.length == 4 ? ip : mappedV4(ip);
    boolean unspecified;
    boolean loopback;
    boolean linkLocal;
    boolean linkLocalMulticast;
    if (v4 != null) {
      int b0 = v4[0] & 0xff;
      int b1 = v4[1] & 0xff;
      unspecified = b0 == 0 && b1 == 0 && v4[2] == 0 && v4[3] == 0;
      loopback = b0 == 127;
      linkLocal = b0 == 169 && b1 == 254;
      linkLocalMulticast = b0 == 224 && b1 == 0 && v4[2] == 0;
    } else {
      boolean zero = true;
      for (int i = 0; i < 15; i++) {
        zero &= ip[i] == 0;
      }
      unspecified = zero && ip[15] == 0;
      loopback = zero && ip[15] == 1;
      linkLocal = (ip[0] & 0xff) == 0xfe && (ip[1] & 0xc0) == 0x80;
      linkLocalMulticast = (ip[0] & 0xff) == 0xff && (ip[1] & 0x0f) == 0x02;
    }
    if (unspecified) {
      errs.add(FieldError.invalid(at, Value.of(a), "may not be unspecified (" + a + ")"));
    }
    if (loopback) {
      errs.add(FieldError.invalid(at, Value.of(a),
          "may not be in the loopback range (127.0.0.0/8, ::1/128)"));
    }
    if (linkLocal) {
      errs.add(FieldError.invalid(at, Value.of(a),
          "may not be in the link-local range (169.254.0.0/16, fe80::/10)"));
    }
    if (linkLocalMulticast) {
      errs.add(FieldError.invalid(at, Value.of(a),
          "may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"));
    }
  }

  private static byte[] mappedV4(byte[] ip) {
    for (int i = 0; i < 10; i++) {
      if (ip[i] != 0) {
        return null;
      }
    }
    if ((ip[10] & 0xff) != 0xff || (ip[11] & 0xff) != 0xff) {
      return null;
    }
    return new byte[] {ip[12], ip[13], ip[14], ip[15]};
  }

  /** util/validation {@code IsFullyQualifiedDomainName}. */
  private static void fqdn(List<FieldError> errs, String at, String value) {
    if (value.isEmpty()) {
      errs.add(FieldError.required(at, ""));
      return;
    }
    String name = value.endsWith(".") ? value.substring(0, value.length() - 1) : value;
    List<String> msgs = MetaValidation.dns1123Subdomain(name);
    if (!msgs.isEmpty()) {
      errs.add(FieldError.invalid(at, Value.of(name), String.join(",", msgs)));
      return;
    }
    String[] labels = name.split("\\.", -1);
    if (labels.length < 2) {
      errs.add(FieldError.invalid(at, Value.of(name),
          "should be a domain with at least two segments separated by dots"));
      return;
    }
    for (String label : labels) {
      List<String> l = MetaValidation.dns1123Label(label);
      if (!l.isEmpty()) {
        errs.add(FieldError.invalid(at, Value.of(label), String.join(",", l)));
        return;
      }
    }
  }

  private static void ports(List<FieldError> errs, List<Value> ports) {
    if (ports.size() > 100) {
      errs.add(tooMany("ports", ports.size(), 100));
      return;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      String at = "ports[" + i + "]";
      Value p = ports.get(i);
      String name = str(p, "name");
      if (!name.isEmpty()) {
        for (String msg : MetaValidation.dns1123Label(name)) {
          errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
        }
      }
      if (!names.add(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      if (!(p instanceof MapValue m) || !(m.getOrNull("protocol") instanceof StringValue proto)) {
        errs.add(FieldError.required(at + ".protocol", ""));
      } else if (!PROTOCOLS.contains(proto.value())) {
        errs.add(FieldError.notSupported(at + ".protocol", proto, PROTOCOLS));
      }
      if (p instanceof MapValue m && m.getOrNull("appProtocol") instanceof StringValue app) {
        for (String msg : MetaValidation.qualifiedName(app.value())) {
          errs.add(FieldError.invalid(at + ".appProtocol", app, msg));
        }
      }
    }
  }
}
