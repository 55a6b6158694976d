/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.service;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;
import static io.apiserver4j.registry.core.service.ServiceStrategy.externallyAccessible;
import static io.apiserver4j.registry.core.service.ServiceStrategy.isHeadless;
import static io.apiserver4j.registry.core.service.ServiceStrategy.needsHealthCheckNodePort;

import io.apiserver4j.apimachinery.validation.IpAddresses;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
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
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code ValidateService}/{@code ValidateServiceUpdate}: ports, selector, types, cluster
 * IPs and families, traffic policies and immutable cluster IPs, with kube's field paths and
 * messages.
 */
final class ServiceValidation {
  private static final List<String> TYPES =
      List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
  private static final List<String> AFFINITIES = List.of("ClientIP", "None");
  private static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
  private static final List<String> FAMILIES = List.of("IPv4", "IPv6");
  private static final List<String> FAMILY_POLICIES =
      List.of("PreferDualStack", "RequireDualStack", "SingleStack");
  // kube's supportedPortProtocols, as for pods' container ports
  private static final long KUBELET_PORT = 10250;

  private ServiceValidation() {}

  static List<FieldError> validateService(MapValue svc, Optional<MapValue> old) {
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
