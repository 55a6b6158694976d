/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.IpAddresses;
import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.integer;
import static io.apiserver4j.apimachinery.validation.GroupValidation.list;
import static io.apiserver4j.apimachinery.validation.GroupValidation.map;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupValidation;

/**
 * networking.k8s.io/v1: Ingress, IngressClass, NetworkPolicy, IPAddress and ServiceCIDR, as kube's
 * {@code pkg/apis/networking/v1/defaults.go} and {@code pkg/apis/networking/validation}.
 */
final class NetworkingStrategies {
  private static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific",
      "Prefix");
  private static final List<String> INVALID_PATH_SEQUENCES = List.of("//", "/./", "/../", "%2f",
      "%2F");

  private NetworkingStrategies() {}

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(kind("Ingress"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(NetworkingStrategies::validateIngress)
        .build());
    out.put(kind("IngressClass"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(NetworkingStrategies::defaultIngressClass)
        .validator(NetworkingStrategies::validateIngressClass)
        .build());
    out.put(kind("NetworkPolicy"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(NetworkingStrategies::defaultNetworkPolicy)
        .validator(NetworkingStrategies::validateNetworkPolicy)
        .build());
    // an IPAddress is named by its address, which kube checks instead of a DNS name
    out.put(kind("IPAddress"), ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .validator(NetworkingStrategies::validateIpAddress)
        .build());
    out.put(kind("ServiceCIDR"), ResourceStrategy.builder()
        .validator(NetworkingStrategies::validateServiceCidr)
        .build());
    return out;
  }

  private static GroupVersionKind kind(String kind) {
    return new GroupVersionKind("networking.k8s.io", "v1", kind);
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultNetworkPolicy(MapValue np) {
    MapValue r = np;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    for (String dir : List.of("ingress", "egress")) {
      r = Nested.updateListItems(r, rule -> Nested.updateListItems(rule,
          p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports"), "spec", dir);
    }
    if (Nested.list(r, "spec", "policyTypes").isEmpty()) {
      List<Value> types = new ArrayList<>(List.of(Value.of("Ingress")));
      if (!Nested.list(r, "spec", "egress").isEmpty()) {
        types.add(Value.of("Egress"));
      }
      r = Nested.set(r, Value.list(types), "spec", "policyTypes");
    }
    return r;
  }

  static MapValue defaultIngressClass(MapValue ic) {
    if (Nested.mapOrNull(ic, "spec", "parameters") == null) {
      return ic;
    }
    return Nested.setDefault(ic, Value.of("Cluster"), "spec", "parameters", "scope");
  }

  // --- Ingress -----------------------------------------------------------------------------

  private static List<FieldError> validateIngress(MapValue ing, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(ing, "spec");
    List<Value> rules = list(spec, "rules");
    if (rules.isEmpty() && !has(spec, "defaultBackend")) {
      // kube passes the nil rules slice, which renders as JSON null
      errs.add(FieldError.invalid("spec", Value.nullValue(),
          "either `defaultBackend` or `rules` must be specified"));
    }
    boolean relaxedNames = old.map(NetworkingStrategies::hasRelaxedServiceName).orElse(false);
    if (has(spec, "defaultBackend")) {
      backend(errs, map(spec, "defaultBackend"), "spec.defaultBackend", relaxedNames);
    }
    boolean allowInvalidWildcard = old.map(NetworkingStrategies::hasInvalidWildcardRule)
        .orElse(false);
    for (int i = 0; i < rules.size(); i++) {
      String at = "spec.rules[" + i + "]";
      Value rule = rules.get(i);
      String host = str(rule, "host");
      boolean wildcard = false;
      if (!host.isEmpty()) {
        if (IpAddresses.parse(host) != null) {
          errs.add(FieldError.invalid(at + ".host", Value.of(host),
              "must be a DNS name, not an IP address"));
        }
        if (host.contains("*")) {
          wildcard = true;
          for (String msg : GroupValidation.wildcardSubdomain(host)) {
            errs.add(FieldError.invalid(at + ".host", Value.of(host), msg));
          }
        } else {
          for (String msg : MetaValidation.dns1123Subdomain(host)) {
            errs.add(FieldError.invalid(at + ".host", Value.of(host), msg));
          }
        }
      }
      if (!wildcard || !allowInvalidWildcard) {
        ruleValue(errs, rule, at, relaxedNames);
      }
    }
    List<Value> tls = list(spec, "tls");
    boolean allowInvalidSecret = old.map(o -> {
      for (Value t : list(Nested.mapOrNull(o, "spec"), "tls")) {
        String n = str(t, "secretName");
        if (!n.isEmpty() && !MetaValidation.dns1123Subdomain(n).isEmpty()) {
          return true;
        }
      }
      return false;
    }).orElse(false);
    for (int i = 0; i < tls.size(); i++) {
      String at = "spec.tls[" + i + "]";
      List<Value> hosts = list(tls.get(i), "hosts");
      for (int j = 0; j < hosts.size(); j++) {
        String h = hosts.get(j) instanceof StringValue s ? s.value() : "";
        List<String> msgs = h.contains("*") ? GroupValidation.wildcardSubdomain(h)
            : MetaValidation.dns1123Subdomain(h);
        for (String msg : msgs) {
          errs.add(FieldError.invalid(at + ".hosts[" + j + "]", Value.of(h), msg));
        }
      }
      String secret = str(tls.get(i), "secretName");
      if (!allowInvalidSecret && !secret.isEmpty()) {
        for (String msg : MetaValidation.dns1123Subdomain(secret)) {
          errs.add(FieldError.invalid(at + ".secretName", Value.of(secret), msg));
        }
      }
    }
    if (spec != null && spec.getOrNull("ingressClassName") instanceof StringValue cls) {
      for (String msg : MetaValidation.dns1123Subdomain(cls.value())) {
        errs.add(FieldError.invalid("spec.ingressClassName", cls, msg));
      }
    }
    if (old.isEmpty() && spec != null
        && spec.getOrNull("ingressClassName") instanceof StringValue cls) {
      String annotation = Meta.annotations(ing).get("kubernetes.io/ingress.class");
      if (annotation != null && !annotation.equals(cls.value())) {
        errs.add(FieldError.invalid("annotations.kubernetes.io/ingress.class",
            Value.of(annotation), "must match `ingressClassName` when both are specified"));
      }
    }
    // the status as kube's ValidateIngressLoadBalancerStatus (existing invalid IPs ratchet)
    Set<String> oldIps = new HashSet<>();
    old.ifPresent(o -> list(Nested.mapOrNull(o, "status", "loadBalancer"), "ingress")
        .forEach(e -> oldIps.add(str(e, "ip"))));
    List<Value> lb = list(Nested.mapOrNull(ing, "status", "loadBalancer"), "ingress");
    for (int i = 0; i < lb.size(); i++) {
      String at = "status.loadBalancer.ingress[" + i + "]";
      String ip = str(lb.get(i), "ip");
      if (!ip.isEmpty() && IpAddresses.parse(ip) == null && !oldIps.contains(ip)) {
        errs.add(FieldError.invalid(at + ".ip", Value.of(ip), GroupValidation.INVALID_IP));
      }
      String hostname = str(lb.get(i), "hostname");
      if (!hostname.isEmpty()) {
        for (String msg : MetaValidation.dns1123Subdomain(hostname)) {
          errs.add(FieldError.invalid(at + ".hostname", Value.of(hostname), msg));
        }
        if (IpAddresses.parse(hostname) != null) {
          errs.add(FieldError.invalid(at + ".hostname", Value.of(hostname),
              "must be a DNS name, not an IP address"));
        }
      }
    }
    return errs;
  }

  // a stored Ingress naming a Service that is a DNS-1123 label but not a DNS-1035 one keeps
  // kube's relaxed Service name rule (RelaxedServiceNameValidation is off by default)
  private static boolean hasRelaxedServiceName(MapValue old) {
    List<Value> backends = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(old, "spec");
    if (map(spec, "defaultBackend") != null) {
      backends.add(map(spec, "defaultBackend"));
    }
    for (Value rule : list(spec, "rules")) {
      for (Value path : list(map(rule, "http"), "paths")) {
        backends.add(map(path, "backend"));
      }
    }
    for (Value b : backends) {
      MapValue service = map(b, "service");
      if (service != null) {
        String n = str(service, "name");
        if (MetaValidation.dns1123Label(n).isEmpty() && !MetaValidation.dns1035Label(n).isEmpty()) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean hasInvalidWildcardRule(MapValue old) {
    for (Value rule : list(Nested.mapOrNull(old, "spec"), "rules")) {
      List<FieldError> errs = new ArrayList<>();
      ruleValue(errs, rule, "", false);
      if (str(rule, "host").contains("*") && !errs.isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private static void ruleValue(List<FieldError> errs, Value rule, String at,
      boolean relaxedNames) {
    MapValue http = map(rule, "http");
    if (http == null) {
      return;
    }
    List<Value> paths = list(http, "paths");
    if (paths.isEmpty()) {
      errs.add(FieldError.required(at + ".http.paths", ""));
    }
    for (int i = 0; i < paths.size(); i++) {
      String p = at + ".http.paths[" + i + "]";
      Value path = paths.get(i);
      if (!(path instanceof MapValue pm) || !(pm.getOrNull("pathType") instanceof StringValue t)) {
        errs.add(FieldError.required(p + ".pathType", "pathType must be specified"));
        continue;
      }
      String value = str(path, "path");
      switch (t.value()) {
        case "Exact", "Prefix" -> {
          if (!value.startsWith("/")) {
            errs.add(FieldError.invalid(p + ".path", Value.of(value), "must be an absolute path"));
          }
          for (String seq : INVALID_PATH_SEQUENCES) {
            if (value.contains(seq)) {
              errs.add(FieldError.invalid(p + ".path", Value.of(value),
                  "must not contain '" + seq + "'"));
            }
          }
          for (String suffix : List.of("/..", "/.")) {
            if (value.endsWith(suffix)) {
              errs.add(FieldError.invalid(p + ".path", Value.of(value),
                  "cannot end with '" + suffix + "'"));
            }
          }
        }
        case "ImplementationSpecific" -> {
          if (!value.isEmpty() && !value.startsWith("/")) {
            errs.add(FieldError.invalid(p + ".path", Value.of(value), "must be an absolute path"));
          }
        }
        default -> errs.add(FieldError.notSupported(p + ".pathType", t, PATH_TYPES));
      }
      backend(errs, map(path, "backend"), p + ".backend", relaxedNames);
    }
  }

  private static void backend(List<FieldError> errs, MapValue backend, String at,
      boolean relaxedNames) {
    boolean hasResource = has(backend, "resource");
    boolean hasService = has(backend, "service");
    if (hasResource && hasService) {
      errs.add(FieldError.invalid(at, Value.of(""), "cannot set both resource and service backends"));
      return;
    }
    if (hasResource) {
      localObjectReference(errs, map(backend, "resource"), at + ".resource");
      return;
    }
    if (!hasService) {
      errs.add(FieldError.invalid(at, Value.of(""), "resource or service backend is required"));
      return;
    }
    MapValue service = map(backend, "service");
    String name = str(service, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(at + ".service.name", ""));
    } else {
      for (String msg : relaxedNames ? MetaValidation.dns1123Label(name)
          : MetaValidation.dns1035Label(name)) {
        errs.add(FieldError.invalid(at + ".service.name", Value.of(name), msg));
      }
    }
    MapValue port = map(service, "port");
    String portName = str(port, "name");
    Long number = integer(port, "number");
    boolean hasNumber = number != null && number != 0;
    if (!portName.isEmpty() && hasNumber) {
      errs.add(FieldError.invalid(at, Value.of(""), "cannot set both port name & port number"));
    } else if (!portName.isEmpty()) {
      for (String msg : KubeValidation.portName(portName)) {
        errs.add(FieldError.invalid(at + ".service.port.name", Value.of(portName), msg));
      }
    } else if (hasNumber) {
      for (String msg : KubeValidation.portNum(number)) {
        errs.add(FieldError.invalid(at + ".service.port.number", Value.of(number), msg));
      }
    } else {
      errs.add(FieldError.required(at, "port name or number is required"));
    }
  }

  // TypedLocalObjectReference of a resource backend
  private static void localObjectReference(List<FieldError> errs, MapValue ref, String at) {
    if (ref.getOrNull("apiGroup") instanceof StringValue g) {
      for (String msg : MetaValidation.dns1123Subdomain(g.value())) {
        errs.add(FieldError.invalid(at + ".apiGroup", g, msg));
      }
    }
    pathSegmentRequired(errs, ref, "kind", at);
    pathSegmentRequired(errs, ref, "name", at);
  }

  static void pathSegmentRequired(List<FieldError> errs, Value ref, String key, String at) {
    String v = str(ref, key);
    if (v.isEmpty()) {
      errs.add(FieldError.required(at + "." + key, ""));
      return;
    }
    for (String msg : MetaValidation.pathSegment(v, false)) {
      errs.add(FieldError.invalid(at + "." + key, Value.of(v), msg));
    }
  }

  // --- IngressClass ------------------------------------------------------------------------

  private static List<FieldError> validateIngressClass(MapValue ic, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(ic, "spec");
    String controller = str(spec, "controller");
    old.ifPresent(o -> KubeValidation.immutable(Value.of(controller),
        Value.of(str(Nested.mapOrNull(o, "spec"), "controller")), "spec.controller", errs));
    if (controller.isEmpty()) {
      errs.add(FieldError.required("spec.controller", ""));
    } else {
      if (controller.length() > 250) {
        errs.add(FieldError.tooLong("spec.controller", 250));
      }
      GroupValidation.domainPrefixedPath(errs, "spec.controller", controller);
    }
    MapValue params = map(spec, "parameters");
    if (params != null) {
      String at = "spec.parameters";
      if (params.getOrNull("apiGroup") instanceof StringValue g) {
        for (String msg : MetaValidation.dns1123Subdomain(g.value())) {
          errs.add(FieldError.invalid(at + ".apiGroup", g, msg));
        }
      }
      pathSegmentRequired(errs, params, "kind", at);
      pathSegmentRequired(errs, params, "name", at);
      if (!(params.getOrNull("scope") instanceof StringValue scope)) {
        errs.add(FieldError.required(at + ".scope", ""));
      } else if (!scope.value().equals("Cluster") && !scope.value().equals("Namespace")) {
        errs.add(FieldError.notSupported(at + ".scope", scope, List.of("Cluster", "Namespace")));
      } else if (scope.value().equals("Namespace")) {
        if (!(params.getOrNull("namespace") instanceof StringValue ns)) {
          errs.add(FieldError.required(at + ".namespace", "`parameters.scope` is set to 'Namespace'"));
        } else {
          for (String msg : MetaValidation.dns1123Label(ns.value())) {
            errs.add(FieldError.invalid(at + ".namespace", ns, msg));
          }
        }
      } else if (has(params, "namespace")) {
        errs.add(FieldError.forbidden(at + ".namespace", "`parameters.scope` is set to 'Cluster'"));
      }
    }
    return errs;
  }

  // --- NetworkPolicy -----------------------------------------------------------------------

  private static List<FieldError> validateNetworkPolicy(MapValue np, Optional<MapValue> old) {
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

  // --- IPAddress and ServiceCIDR -------------------------------------------------------------

  private static List<FieldError> validateIpAddress(MapValue ip, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    String name = Meta.metaString(ip, "name");
    if (!name.isEmpty()) {
      byte[] parsed = IpAddresses.parse(name);
      if (parsed == null) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), GroupValidation.INVALID_IP));
      } else if (name.contains(":") && name.contains(".")) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name),
            "must not be an IPv4-mapped IPv6 address"));
      } else if (!name.contains(":") && hasLeadingZero(name)) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name), "must not have leading 0s"));
      } else if (name.contains(":") && !name.equals(IpAddresses.format(parsed))) {
        errs.add(FieldError.invalid("metadata.name", Value.of(name),
            "must be in canonical form (\"" + IpAddresses.format(parsed) + "\")"));
      }
    }
    if (old.isPresent()) {
      MapValue now = Nested.mapOrNull(ip, "spec", "parentRef");
      MapValue before = Nested.mapOrNull(old.get(), "spec", "parentRef");
      if (!java.util.Objects.equals(now, before)) {
        errs.add(GroupValidation.invalidGo("spec.parentRef", goParentRef(now),
            KubeValidation.IMMUTABLE));
      }
      return errs;
    }
    MapValue ref = Nested.mapOrNull(ip, "spec", "parentRef");
    if (ref == null) {
      errs.add(FieldError.required("spec.parentRef", ""));
      return errs;
    }
    String at = "spec.parentRef";
    String group = str(ref, "group");
    if (!group.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(group)) {
        errs.add(FieldError.invalid(at + ".group", Value.of(group), msg));
      }
    }
    pathSegmentRequired(errs, ref, "resource", at);
    pathSegmentRequired(errs, ref, "name", at);
    String ns = str(ref, "namespace");
    if (!ns.isEmpty()) {
      for (String msg : MetaValidation.pathSegment(ns, false)) {
        errs.add(FieldError.invalid(at + ".namespace", Value.of(ns), msg));
      }
    }
    return errs;
  }

  // the JSON of kube's internal ParentReference (no json tags: Go field names), as kube prints it
  private static String goParentRef(MapValue ref) {
    if (ref == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("{");
    String[] fields = {"Group", "Resource", "Namespace", "Name"};
    for (int i = 0; i < fields.length; i++) {
      String key = Character.toLowerCase(fields[i].charAt(0)) + fields[i].substring(1);
      sb.append(i == 0 ? "" : ",").append('"').append(fields[i]).append("\":")
          .append(io.apiserver4j.core.Json.write(Value.of(str(ref, key))));
    }
    return sb.append('}').toString();
  }

  private static boolean hasLeadingZero(String v4) {
    for (String part : v4.split("\\.")) {
      if (part.length() > 1 && part.startsWith("0")) {
        return true;
      }
    }
    return false;
  }

  private static List<FieldError> validateServiceCidr(MapValue sc, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<String> cidrs = Meta.stringList(Nested.getOrNull(sc, "spec", "cidrs"));
    if (old.isPresent()) {
      List<String> before = Meta.stringList(Nested.getOrNull(old.get(), "spec", "cidrs"));
      if (before.size() == cidrs.size()) {
        for (int i = 0; i < before.size(); i++) {
          if (!before.get(i).equals(cidrs.get(i))) {
            errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(cidrs.get(i)),
                KubeValidation.IMMUTABLE));
          }
        }
      } else if (before.size() == 1 && cidrs.size() == 2) {
        if (!cidrs.get(0).equals(before.get(0))) {
          errs.add(FieldError.invalid("spec.cidrs[0]", Value.of(cidrs.get(0)),
              KubeValidation.IMMUTABLE));
        }
        errs.addAll(serviceCidrSpec(cidrs));
      } else {
        errs.add(FieldError.invalid("spec.cidrs", strings(cidrs), KubeValidation.IMMUTABLE));
      }
      return errs;
    }
    return serviceCidrSpec(cidrs);
  }

  private static List<FieldError> serviceCidrSpec(List<String> cidrs) {
    List<FieldError> errs = new ArrayList<>();
    if (cidrs.isEmpty()) {
      errs.add(FieldError.required("spec.cidrs", "at least one CIDR required"));
      return errs;
    }
    if (cidrs.size() > 2) {
      errs.add(FieldError.invalid("spec.cidrs", MapValue.ofEntries("cidrs", strings(cidrs)),
          "may only hold up to 2 values"));
      return errs;
    }
    for (int i = 0; i < cidrs.size(); i++) {
      String c = cidrs.get(i);
      Optional<IpAddresses.Cidr> parsed = IpAddresses.parseCidr(c);
      int slash = c.indexOf('/');
      if (parsed.isEmpty()) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            GroupValidation.INVALID_CIDR));
      } else if ((!c.contains(":") && hasLeadingZero(c.substring(0, slash)))
          || (c.length() - slash > 2 && c.charAt(slash + 1) == '0')) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must not have leading 0s in IP or prefix length"));
      } else if (!Arrays.equals(parsed.get().ip(), IpAddresses.parse(c.substring(0, slash)))) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must not have bits set beyond the prefix length"));
      } else if (!c.equals(canonicalCidr(parsed.get()))) {
        errs.add(FieldError.invalid("spec.cidrs[" + i + "]", Value.of(c),
            "must be in canonical form (\"" + canonicalCidr(parsed.get()) + "\")"));
      }
    }
    if (cidrs.size() == 2) {
      Optional<IpAddresses.Cidr> a = IpAddresses.parseCidr(cidrs.get(0));
      Optional<IpAddresses.Cidr> b = IpAddresses.parseCidr(cidrs.get(1));
      if (a.isPresent() && b.isPresent() && a.get().ipv6() == b.get().ipv6()) {
        errs.add(FieldError.invalid("spec.cidrs", strings(cidrs), "may specify no more than one"
            + " IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64"));
      }
    }
    return errs;
  }

  private static String canonicalCidr(IpAddresses.Cidr c) {
    return IpAddresses.format(c.ip()) + "/" + c.bits();
  }

  private static ListValue strings(List<String> values) {
    return ListValue.ofStrings(values);
  }
}
