/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.networkpolicy;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.integer;
import static io.apiserver4j.apimachinery.validation.GroupValidation.list;
import static io.apiserver4j.apimachinery.validation.GroupValidation.map;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.IpAddresses;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code ValidateNetworkPolicy}/{@code ValidateNetworkPolicyUpdate}: the pod selector,
 * the ingress and egress rules' ports and peers (IP blocks with their exceptions), the policy
 * types; CIDRs and label values already stored are accepted again.
 */
final class NetworkPolicyValidation {
  private NetworkPolicyValidation() {}

  static List<FieldError> validate(MapValue np, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(np, "spec");
    // CIDRs already stored are accepted again as they are (kube's AllowCIDRsEvenIfInvalid)
    Set<String> oldCidrs = new HashSet<>();
    old.ifPresent(o -> {
      for (String dir : List.of("ingress:from", "egress:to")) {
        String[] d = dir.split(":");
        for (Value rule : list(Nested.mapOrNull(o, "spec"), d[0])) {
          for (Value peer : list(rule, d[1])) {
            MapValue ipb = map(peer, "ipBlock");
            if (ipb != null) {
              oldCidrs.add(str(ipb, "cidr"));
              Meta.stringList(ipb.getOrNull("except")).forEach(oldCidrs::add);
            }
          }
        }
      }
    });
    boolean allowInvalid = old.map(o -> KubeValidation.hasInvalidLabelValue(
        Nested.getOrNull(o, "spec", "podSelector"))).orElse(false);
    KubeValidation.labelSelector(spec == null ? null : spec.getOrNull("podSelector"),
        "spec.podSelector", allowInvalid, errs);
    for (String dir : List.of("ingress:from", "egress:to")) {
      String[] d = dir.split(":");
      List<Value> rules = list(spec, d[0]);
      for (int i = 0; i < rules.size(); i++) {
        String at = "spec." + d[0] + "[" + i + "]";
        List<Value> ports = list(rules.get(i), "ports");
        for (int j = 0; j < ports.size(); j++) {
          port(errs, ports.get(j), at + ".ports[" + j + "]");
        }
        List<Value> peers = list(rules.get(i), d[1]);
        for (int j = 0; j < peers.size(); j++) {
          peer(errs, peers.get(j), at + "." + d[1] + "[" + j + "]", oldCidrs, allowInvalid);
        }
      }
    }
    List<Value> types = list(spec, "policyTypes");
    if (types.size() > 2) {
      errs.add(FieldError.invalid("spec.policyTypes", Value.list(types),
          "may not specify more than two policyTypes"));
      return errs;
    }
    for (int i = 0; i < types.size(); i++) {
      String t = types.get(i) instanceof StringValue s ? s.value() : "";
      if (!t.equals("Ingress") && !t.equals("Egress")) {
        errs.add(FieldError.notSupported("spec.policyTypes[" + i + "]", Value.of(t),
            List.of("Ingress", "Egress")));
      }
    }
    return errs;
  }
  private static void port(List<FieldError> errs, Value port, String at) {
    if (port instanceof MapValue m && m.getOrNull("protocol") instanceof StringValue proto
        && !List.of("TCP", "UDP", "SCTP").contains(proto.value())) {
      errs.add(FieldError.notSupported(at + ".protocol", proto, List.of("TCP", "UDP", "SCTP")));
    }
    Value p = port instanceof MapValue m ? m.getOrNull("port") : null;
    Long end = integer(port, "endPort");
    if (p instanceof IntegerValue n) {
      for (String msg : KubeValidation.portNum(n.value())) {
        errs.add(FieldError.invalid(at + ".port", n, msg));
      }
      if (end != null) {
        if (end < n.value()) {
          errs.add(FieldError.invalid(at + ".endPort", Value.of(end),
              "must be greater than or equal to `port`"));
        }
        for (String msg : KubeValidation.portNum(end)) {
          errs.add(FieldError.invalid(at + ".endPort", Value.of(end), msg));
        }
      }
    } else if (p instanceof StringValue s) {
      if (end != null) {
        errs.add(FieldError.invalid(at + ".endPort", Value.of(end),
            "may not be specified when `port` is non-numeric"));
      }
      for (String msg : KubeValidation.portName(s.value())) {
        errs.add(FieldError.invalid(at + ".port", s, msg));
      }
    } else if (end != null) {
      errs.add(FieldError.invalid(at + ".endPort", Value.of(end),
          "may not be specified when `port` is not specified"));
    }
  }
  private static void peer(List<FieldError> errs, Value peer, String at, Set<String> oldCidrs,
      boolean allowInvalid) {
    int count = 0;
    if (has(peer, "podSelector")) {
      count++;
      KubeValidation.labelSelector(map(peer, "podSelector"), at + ".podSelector",
          allowInvalid, errs);
    }
    if (has(peer, "namespaceSelector")) {
      count++;
      KubeValidation.labelSelector(map(peer, "namespaceSelector"),
          at + ".namespaceSelector", allowInvalid, errs);
    }
    MapValue ipb = map(peer, "ipBlock");
    if (ipb != null) {
      count++;
      ipBlock(errs, ipb, at + ".ipBlock", oldCidrs);
    }
    if (count == 0) {
      errs.add(FieldError.required(at, "must specify a peer"));
    } else if (count > 1 && ipb != null) {
      errs.add(FieldError.forbidden(at, "may not specify both ipBlock and another peer"));
    }
  }
  private static void ipBlock(List<FieldError> errs, MapValue ipb, String at,
      Set<String> oldCidrs) {
    String cidr = str(ipb, "cidr");
    if (cidr.isEmpty()) {
      errs.add(FieldError.required(at + ".cidr", ""));
      return;
    }
    Optional<IpAddresses.Cidr> parsed = IpAddresses.parseCidr(cidr);
    if (parsed.isEmpty()) {
      if (!oldCidrs.contains(cidr)) {
        errs.add(FieldError.invalid(at + ".cidr", Value.of(cidr), GroupValidation.INVALID_CIDR));
      }
      return;
    }
    List<String> except = Meta.stringList(ipb.getOrNull("except"));
    for (int i = 0; i < except.size(); i++) {
      String e = except.get(i);
      String ep = at + ".except[" + i + "]";
      Optional<IpAddresses.Cidr> ex = IpAddresses.parseCidr(e);
      if (ex.isEmpty()) {
        if (!oldCidrs.contains(e)) {
          errs.add(FieldError.invalid(ep, Value.of(e), GroupValidation.INVALID_CIDR));
        }
        continue;
      }
      if (!parsed.get().contains(ex.get().ip()) || parsed.get().bits() >= ex.get().bits()) {
        errs.add(FieldError.invalid(ep, Value.of(e), "must be a strict subset of `cidr`"));
      }
    }
  }
}
