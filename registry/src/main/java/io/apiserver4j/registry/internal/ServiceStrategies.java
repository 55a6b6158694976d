/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * core/v1 Service: {@code SetDefaults_Service}, the registry's preparation of cluster IPs and
 * allocated values on update ({@code NormalizeClusterIPs}, {@code patchAllocatedValues},
 * {@code dropTypeDependentFields}) and {@code ValidateService}/{@code ValidateServiceUpdate}
 * (ports, selector, types, cluster IPs and families, traffic policies, immutable cluster IPs).
 */
final class ServiceStrategies {
  private static final List<String> TYPES =
      List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
  private static final List<String> AFFINITIES = List.of("ClientIP", "None");
  private static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
  private static final List<String> FAMILIES = List.of("IPv4", "IPv6");
  private static final List<String> FAMILY_POLICIES =
      List.of("PreferDualStack", "RequireDualStack", "SingleStack");
  private static final long KUBELET_PORT = 10250;

  private ServiceStrategies() {}

  static void register(Map<GroupVersionKind, ResourceStrategy> out) {
    out.put(new GroupVersionKind("", "v1", "Service"), ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1035_LABEL)
        .defaulter(ServiceStrategies::defaultService)
        .prepareForCreate((o, old) -> normalizeClusterIps(o, null))
        .prepareForUpdate((o, old) -> prepareUpdate(o, old.orElseThrow()))
        .validator(ServiceStrategies::validateService)
        .allocator(ServiceAllocator.INSTANCE)
        .build());
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

  // --- validation --------------------------------------------------------------------------

  private static List<FieldError> validateService(MapValue svc, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    old.ifPresent(o -> upgradeDowngradeClusterIps(o, svc, errs));
    MapValue spec = Nested.map(svc, "spec");
    String type = str(spec, "type");
    boolean headless = isHeadless(svc);
    List<MapValue> ports = items(spec.getOrNull("ports"));
    if (ports.isEmpty() && !headless && !type.equals("ExternalName")) {
      errs.add(FieldError.required("spec.ports", ""));
    }
    switch (type) {
      case "LoadBalancer" -> {
        for (int i = 0; i < ports.size(); i++) {
          if (ports.get(i).getOrNull("port") instanceof IntegerValue p
              && p.value() == KUBELET_PORT) {
            errs.add(FieldError.invalid(index("spec.ports", i), p,
                "may not expose port 10250 externally since it is used by kubelet"));
          }
        }
        if (headless) {
          errs.add(FieldError.invalid("spec.clusterIPs[0]", Value.of("None"),
              "may not be set to 'None' for LoadBalancer services"));
        }
      }
      case "NodePort" -> {
        if (headless) {
          errs.add(FieldError.invalid("spec.clusterIPs[0]", Value.of("None"),
              "may not be set to 'None' for NodePort services"));
        }
      }
      case "ExternalName" -> {
        if (!Nested.list(spec, "clusterIPs").isEmpty()) {
          errs.add(FieldError.forbidden("spec.clusterIPs", "may not be set for ExternalName"
              + " services"));
        }
        if (!Nested.list(spec, "ipFamilies").isEmpty()) {
          errs.add(FieldError.forbidden("spec.ipFamilies", "may not be set for ExternalName"
              + " services"));
        }
        if (spec.getOrNull("ipFamilyPolicy") instanceof StringValue) {
          errs.add(FieldError.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName"
              + " services"));
        }
        String cname = str(spec, "externalName");
        if (cname.endsWith(".")) {
          cname = cname.substring(0, cname.length() - 1);
        }
        if (cname.isEmpty()) {
          errs.add(FieldError.required("spec.externalName", ""));
        } else {
          for (String msg : MetaValidation.dns1123Subdomain(cname)) {
            errs.add(FieldError.invalid("spec.externalName", Value.of(cname), msg));
          }
        }
      }
      default -> { }
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      servicePort(ports.get(i), ports.size() > 1, names, index("spec.ports", i), errs);
    }
    if (spec.getOrNull("selector") instanceof MapValue sel) {
      errs.addAll(MetaValidation.labels(sel, "spec.selector"));
    }
    String affinity = str(spec, "sessionAffinity");
    if (affinity.isEmpty()) {
      errs.add(FieldError.required("spec.sessionAffinity", ""));
    } else if (!AFFINITIES.contains(affinity)) {
      errs.add(FieldError.notSupported("spec.sessionAffinity", Value.of(affinity), AFFINITIES));
    }
    if (affinity.equals("ClientIP")) {
      if (Nested.getOrNull(spec, "sessionAffinityConfig", "clientIP", "timeoutSeconds")
          instanceof IntegerValue t && (t.value() <= 0 || t.value() > 86400)) {
        errs.add(FieldError.invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", t,
            "must be greater than 0 and less than 86400"));
      }
    } else if (affinity.equals("None") && spec.getOrNull("sessionAffinityConfig")
        instanceof MapValue) {
      errs.add(FieldError.forbidden("spec.sessionAffinityConfig",
          "must not be set when session affinity is None"));
    }
    clusterIpFields(svc, errs);
    List<Value> external = Nested.list(spec, "externalIPs");
    for (int i = 0; i < external.size(); i++) {
      String ip = external.get(i) instanceof StringValue s ? s.value() : "";
      if (IpAddresses.parse(ip).isEmpty()) {
        errs.add(FieldError.invalid(index("spec.externalIPs", i), Value.of(ip),
            IpAddresses.INVALID_IP));
      }
    }
    if (type.isEmpty()) {
      errs.add(FieldError.required("spec.type", ""));
    } else if (!TYPES.contains(type)) {
      errs.add(FieldError.notSupported("spec.type", Value.of(type), TYPES));
    }
    if (type.equals("ClusterIP")) {
      for (int i = 0; i < ports.size(); i++) {
        if (ports.get(i).getOrNull("nodePort") instanceof IntegerValue n && n.value() != 0) {
          errs.add(FieldError.forbidden(index("spec.ports", i) + ".nodePort",
              "may not be used when `type` is 'ClusterIP'"));
        }
      }
    }
    Set<String> nodePortKeys = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      MapValue p = ports.get(i);
      if (p.getOrNull("nodePort") instanceof IntegerValue n && n.value() != 0
          && !nodePortKeys.add(str(p, "protocol") + "/" + n.value())) {
        errs.add(FieldError.duplicate(index("spec.ports", i) + ".nodePort", n));
      }
    }
    Set<String> portKeys = new HashSet<>();
    for (int i = 0; i < ports.size(); i++) {
      MapValue p = ports.get(i);
      Value port = p.getOrNull("port");
      if (!portKeys.add(str(p, "protocol") + "/" + port)) {
        errs.add(FieldError.duplicate(index("spec.ports", i), MapValue.ofEntries("port",
            port == null ? Value.of(0L) : port, "protocol", Value.of(str(p, "protocol")))));
      }
    }
    trafficPolicies(svc, errs);
    return errs;
  }

  private static void servicePort(MapValue p, boolean requireName, Set<String> names,
      String path, List<FieldError> errs) {
    String name = str(p, "name");
    if (requireName && name.isEmpty()) {
      errs.add(FieldError.required(path + ".name", ""));
    } else if (!name.isEmpty()) {
      for (String msg : MetaValidation.dns1123Label(name)) {
        errs.add(FieldError.invalid(path + ".name", Value.of(name), msg));
      }
      if (!names.add(name)) {
        errs.add(FieldError.duplicate(path + ".name", Value.of(name)));
      }
    }
    Value port = p.getOrNull("port");
    KubeValidation.portNumber(port == null ? Value.of(0L) : port, path + ".port", errs);
    KubeValidation.requiredEnum(p, "protocol", path + ".protocol", PodSpecValidation.PROTOCOLS,
        errs);
    Value target = p.getOrNull("targetPort");
    if (target instanceof IntegerValue) {
      KubeValidation.portNumber(target, path + ".targetPort", errs);
    } else if (target instanceof StringValue s) {
      for (String msg : KubeValidation.portName(s.value())) {
        errs.add(FieldError.invalid(path + ".targetPort", s, msg));
      }
    }
    if (p.getOrNull("appProtocol") instanceof StringValue ap) {
      for (String msg : MetaValidation.qualifiedName(ap.value())) {
        errs.add(FieldError.invalid(path + ".appProtocol", ap, msg));
      }
    }
  }

  /** {@code ValidateServiceClusterIPsRelatedFields}. */
  private static void clusterIpFields(MapValue svc, List<FieldError> errs) {
    MapValue spec = Nested.map(svc, "spec");
    if (str(spec, "type").equals("ExternalName")) {
      return;
    }
    int before = errs.size();
    String ip = str(spec, "clusterIP");
    ListValue ips = spec.getOrNull("clusterIPs") instanceof ListValue l ? l
        : ListValue.of(List.of());
    if (!ip.isEmpty()) {
      if (ips.isEmpty()) {
        errs.add(FieldError.required("spec.clusterIPs", ""));
      } else if (!(ips.get(0) instanceof StringValue first && first.value().equals(ip))) {
        errs.add(FieldError.invalid("spec.clusterIPs", ips, "first value must match `clusterIP`"));
      }
    } else if (!ips.isEmpty()) {
      errs.add(FieldError.invalid("spec.clusterIPs", ips,
          "must be empty when `clusterIP` is not specified"));
    }
    List<Value> families = Nested.list(spec, "ipFamilies");
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < families.size(); i++) {
      String f = families.get(i) instanceof StringValue s ? s.value() : "";
      if (!FAMILIES.contains(f)) {
        errs.add(FieldError.notSupported(index("spec.ipFamilies", i), Value.of(f), FAMILIES));
      }
      if (!seen.add(f)) {
        errs.add(FieldError.duplicate(index("spec.ipFamilies", i), Value.of(f)));
      }
    }
    KubeValidation.optionalEnum(spec, "ipFamilyPolicy", "spec.ipFamilyPolicy", FAMILY_POLICIES,
        errs);
    for (int i = 0; i < ips.size(); i++) {
      String v = ips.get(i) instanceof StringValue s ? s.value() : "";
      if (i == 0 && v.equals("None")) {
        if (ips.size() > 1) {
          errs.add(FieldError.invalid("spec.clusterIPs", ips,
              "'None' must be the first and only value"));
        }
        continue;
      }
      if (IpAddresses.parse(v).isEmpty()) {
        errs.add(FieldError.invalid(index("spec.clusterIPs", i), Value.of(v),
            IpAddresses.INVALID_IP));
      }
    }
    if (ips.size() > 2) {
      errs.add(FieldError.invalid("spec.clusterIPs", ips, "may only hold up to 2 values"));
    }
    if (errs.size() > before) {
      return;
    }
    if (ips.size() > 1) {
      boolean v6a = IpAddresses.isIpv6(str0(ips, 0));
      boolean v6b = IpAddresses.isIpv6(str0(ips, 1));
      if (v6a == v6b) {
        errs.add(FieldError.invalid("spec.clusterIPs", ips,
            "may specify no more than one IP for each IP family"));
      }
    }
    if (!isHeadless(svc)) {
      for (int i = 0; i < ips.size() && i < families.size(); i++) {
        String f = families.get(i) instanceof StringValue s ? s.value() : "";
        boolean v6 = IpAddresses.isIpv6(str0(ips, i));
        if (f.equals("IPv4") && v6) {
          errs.add(FieldError.invalid(index("spec.clusterIPs", i), ips.get(i),
              "expected an IPv4 value as indicated by `ipFamilies[" + i + "]`"));
        }
        if (f.equals("IPv6") && !v6) {
          errs.add(FieldError.invalid(index("spec.clusterIPs", i), ips.get(i),
              "expected an IPv6 value as indicated by `ipFamilies[" + i + "]`"));
        }
      }
    }
  }

  private static String str0(ListValue l, int i) {
    return l.get(i) instanceof StringValue s ? s.value() : "";
  }

  private static void trafficPolicies(MapValue svc, List<FieldError> errs) {
    MapValue spec = Nested.map(svc, "spec");
    String etp = str(spec, "externalTrafficPolicy");
    if (!externallyAccessible(svc)) {
      if (!etp.isEmpty()) {
        errs.add(FieldError.invalid("spec.externalTrafficPolicy", Value.of(etp),
            "may only be set for externally-accessible services"));
      }
    } else if (etp.isEmpty()) {
      errs.add(FieldError.required("spec.externalTrafficPolicy", ""));
    } else if (!TRAFFIC_POLICIES.contains(etp)) {
      errs.add(FieldError.notSupported("spec.externalTrafficPolicy", Value.of(etp),
          TRAFFIC_POLICIES));
    }
    if (spec.getOrNull("healthCheckNodePort") instanceof IntegerValue hc && hc.value() != 0
        && !needsHealthCheckNodePort(svc)) {
      errs.add(FieldError.invalid("spec.healthCheckNodePort", hc, "may only be set when `type`"
          + " is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
    }
    String type = str(spec, "type");
    Value itp = spec.getOrNull("internalTrafficPolicy");
    if (itp == null && (type.equals("NodePort") || type.equals("LoadBalancer")
        || type.equals("ClusterIP"))) {
      errs.add(FieldError.required("spec.internalTrafficPolicy", ""));
    }
    KubeValidation.optionalEnum(spec, "internalTrafficPolicy", "spec.internalTrafficPolicy",
        TRAFFIC_POLICIES, errs);
  }

  /** {@code validateUpgradeDowngradeClusterIPs}: the primary cluster IP never changes. */
  private static void upgradeDowngradeClusterIps(MapValue old, MapValue svc,
      List<FieldError> errs) {
    if (str(old, "spec", "type").equals("ExternalName")
        || str(svc, "spec", "type").equals("ExternalName")) {
      return;
    }
    if (isHeadless(old) && isHeadless(svc)) {
      return;
    }
    List<Value> before = Nested.list(old, "spec", "clusterIPs");
    List<Value> now = Nested.list(svc, "spec", "clusterIPs");
    ListValue nowValue = ListValue.of(now);
    if (before.size() == now.size()) {
      for (int i = 0; i < before.size(); i++) {
        if (!before.get(i).equals(now.get(i))) {
          errs.add(FieldError.invalid(index("spec.clusterIPs", i), nowValue,
              "may not change once set"));
        }
      }
    } else if (before.size() > now.size()) {
      if (now.isEmpty()) {
        errs.add(FieldError.invalid("spec.clusterIPs[0]", nowValue,
            "primary clusterIP can not be unset"));
      }
      if (!now.isEmpty() && !before.get(0).equals(now.get(0))) {
        errs.add(FieldError.invalid("spec.clusterIPs[0]", nowValue, "may not change once set"));
      }
      if (now.size() == 1 && !str(svc, "spec", "ipFamilyPolicy").equals("SingleStack")) {
        errs.add(FieldError.invalid("spec.clusterIPs[0]", nowValue, "`ipFamilyPolicy` must be"
            + " set to 'SingleStack' when releasing the secondary clusterIP"));
      }
    } else if (!before.isEmpty() && !before.get(0).equals(now.get(0))) {
      errs.add(FieldError.invalid("spec.clusterIPs[0]", nowValue, "may not change once set"));
    }
  }
}
