/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.internal;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What the endpoints and endpointslice controllers share: kube's
 * {@code k8s.io/endpointslice/util} predicates ({@code ShouldPodBeInEndpoints},
 * {@code ShouldSetHostname}, {@code GetPodServiceMemberships}), {@code podutil.FindPort} and the
 * {@code endpoints.kubernetes.io/last-change-trigger-time} format. Stateless.
 */
public final class ServiceEndpoints {
  /** {@code v1.EndpointsLastChangeTriggerTime}. */
  public static final String TRIGGER_TIME = "endpoints.kubernetes.io/last-change-trigger-time";
  /** {@code v1.IsHeadlessService}. */
  public static final String HEADLESS = "service.kubernetes.io/headless";

  private ServiceEndpoints() {}

  /**
   * The Service's selector, empty when it has none or an empty one: kube's stored Services
   * never carry an empty selector (it is omitted), and a missing one selects nothing.
   */
  public static Optional<Map<String, String>> selector(MapValue service) {
    MapValue s = Nested.mapOrNull(service, "spec", "selector");
    if (s == null || s.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> out = new LinkedHashMap<>();
    s.forEach((k, v) -> out.put(k, Nested.str(v)));
    return Optional.of(out);
  }

  /** Whether {@code labels} carry every pair of {@code selector}. */
  public static boolean matches(Map<String, String> selector, Map<String, String> labels) {
    return labels.entrySet().containsAll(selector.entrySet());
  }

  /**
   * {@code GetPodServiceMemberships}: the keys of the Services of the Pod's namespace whose
   * selector selects it.
   */
  public static Set<String> memberships(List<MapValue> services, MapValue pod) {
    Set<String> out = new LinkedHashSet<>();
    Map<String, String> labels = Meta.labels(pod);
    for (MapValue svc : services) {
      Optional<Map<String, String>> sel = selector(svc);
      if (sel.isPresent() && matches(sel.get(), labels)) {
        out.add(Pods.key(svc));
      }
    }
    return out;
  }

  /**
   * {@code ShouldPodBeInEndpoints}: not terminal, has an IP, and not terminating unless
   * {@code includeTerminating}.
   */
  public static boolean shouldPodBeInEndpoints(MapValue pod, boolean includeTerminating) {
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Succeeded") || phase.equals("Failed")) {
      return false;
    }
    if (podIps(pod).isEmpty()) {
      return false;
    }
    return includeTerminating || !Nested.has(pod, "metadata", "deletionTimestamp");
  }

  /**
   * The Pod's IPs: {@code status.podIPs}, or {@code status.podIP} alone when the list is empty
   * (kube's conversion fills the list from the single field).
   */
  public static List<String> podIps(MapValue pod) {
    List<String> out = new ArrayList<>();
    for (Value ip : Nested.list(pod, "status", "podIPs")) {
      String s = Nested.str(ip, "ip");
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    String single = Nested.str(pod, "status", "podIP");
    if (out.isEmpty() && !single.isEmpty()) {
      out.add(single);
    }
    return out;
  }

  /** {@code ShouldSetHostname}: the Pod names a hostname and the Service as its subdomain. */
  public static boolean shouldSetHostname(MapValue pod, MapValue service) {
    return !Nested.str(pod, "spec", "hostname").isEmpty()
        && Nested.str(pod, "spec", "subdomain").equals(Meta.metaString(service, "name"))
        && Meta.metaString(service, "namespace").equals(Meta.metaString(pod, "namespace"));
  }

  /** {@code utilnet.IsIPv6String}: a literal with a colon. */
  public static boolean isIpv6(String ip) {
    return ip.indexOf(':') >= 0;
  }

  /** {@code helper.IsServiceIPSet}: a cluster IP that is neither empty nor {@code None}. */
  public static boolean serviceIpSet(MapValue service) {
    String ip = Nested.str(service, "spec", "clusterIP");
    return !ip.isEmpty() && !ip.equals("None");
  }

  /**
   * {@code podutil.FindPort}: a numeric target port as is; a named one from the Pod's
   * containers (and restartable init containers) with that port name and the Service port's
   * protocol. Empty when no port fits.
   */
  public static OptionalLong findPort(MapValue pod, Value servicePort) {
    String protocol = protocol(servicePort);
    Value target = Nested.getOrNull(servicePort, "targetPort");
    if (target == null) {
      // the API server defaults targetPort to port
      return OptionalLong.of(Nested.integer(servicePort, "port"));
    }
    if (!(target instanceof io.apiserver4j.core.StringValue named)) {
      return OptionalLong.of(Nested.integer(servicePort, "targetPort"));
    }
    List<Value> containers = new ArrayList<>(Nested.list(pod, "spec", "containers"));
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        containers.add(c);
      }
    }
    for (Value c : containers) {
      for (Value p : Nested.list(c, "ports")) {
        if (Nested.str(p, "name").equals(named.value()) && protocol(p).equals(protocol)) {
          return OptionalLong.of(Nested.integer(p, "containerPort"));
        }
      }
    }
    return OptionalLong.empty();
  }

  /** A port's protocol, TCP when unset as kube defaults it. */
  public static String protocol(Value port) {
    String p = Nested.str(port, "protocol");
    return p.isEmpty() ? "TCP" : p;
  }

  /** Go's {@code time.RFC3339Nano} in UTC: fractional seconds without trailing zeros. */
  public static String formatNano(Instant t) {
    String s = DateTimeFormatter.ISO_INSTANT.format(t);
    int dot = s.indexOf('.');
    if (dot < 0) {
      return s;
    }
    int end = s.length() - 1;
    int last = end - 1;
    while (last > dot && s.charAt(last) == '0') {
      last--;
    }
    return (last == dot ? s.substring(0, dot) : s.substring(0, last + 1)) + "Z";
  }
}
