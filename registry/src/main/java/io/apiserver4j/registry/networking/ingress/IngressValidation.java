/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingress;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.integer;
import static io.apiserver4j.apimachinery.validation.GroupValidation.list;
import static io.apiserver4j.apimachinery.validation.GroupValidation.map;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IpAddresses;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.networking.validation.NetworkingValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code ValidateIngressCreate}/{@code ValidateIngressUpdate} of
 * {@code pkg/apis/networking/validation}: rules and hosts, paths and backends, TLS, the class
 * name and the load balancer status, with kube's ratcheting of values already stored.
 */
final class IngressValidation {
  private static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific",
      "Prefix");
  private static final List<String> INVALID_PATH_SEQUENCES = List.of("//", "/./", "/../", "%2f",
      "%2F");

  private IngressValidation() {}

  static List<FieldError> validate(MapValue ing, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(ing, "spec");
    List<Value> rules = list(spec, "rules");
    if (rules.isEmpty() && !has(spec, "defaultBackend")) {
      // kube passes the nil rules slice, which renders as JSON null
      errs.add(FieldError.invalid("spec", Value.nullValue(),
          "either `defaultBackend` or `rules` must be specified"));
    }
    boolean relaxedNames = old.map(IngressValidation::hasRelaxedServiceName).orElse(false);
    if (has(spec, "defaultBackend")) {
      backend(errs, map(spec, "defaultBackend"), "spec.defaultBackend", relaxedNames);
    }
    boolean allowInvalidWildcard = old.map(IngressValidation::hasInvalidWildcardRule)
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
    NetworkingValidation.pathSegmentRequired(errs, ref, "kind", at);
    NetworkingValidation.pathSegmentRequired(errs, ref, "name", at);
  }
}
