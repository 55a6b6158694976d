/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * kube's Pod strategy ({@code pkg/registry/core/pod}): {@code SetDefaults_Pod} on top of the pod
 * spec defaults, the fields of disabled feature gates dropped ({@link PodDisabledFields}), the
 * Pending phase and QoS class on create, Pod validation, the graceful deletion
 * period, the selectable fields, and the eviction, binding, ephemeral containers and resize
 * subresources.
 */
public final class PodStrategy {
  private PodStrategy() {}

  /**
   * kube's Pod strategy: defaults, the Pending phase and QoS class on create, validation, the
   * graceful deletion period, selectable fields, and the {@code eviction}, {@code binding},
   * {@code ephemeralcontainers} and {@code resize} subresources.
   */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .selectableFields("spec.nodeName", "spec.restartPolicy", "spec.schedulerName",
            "spec.serviceAccountName", "spec.hostNetwork", "status.phase", "status.podIP",
            "status.nominatedNodeName")
        .defaulter(PodStrategy::defaultPod)
        .dropDisabledFields(PodDisabledFields::drop)
        .dropDisabledStatusFields(PodDisabledFields::dropFromStatus)
        .prepareForCreate((o, old) -> Nested.set(o, MapValue.ofEntries("phase",
            Value.of("Pending"), "qosClass", Value.of(qosClass(Nested.map(o, "spec")))),
            "status"))
        .gatedValidator(PodValidation::validatePod)
        .gracePeriod(PodStrategy::podGracePeriod)
        .returnDeletedObject(true)
        .subresourceCreate("eviction", new PodEviction())
        .subresourceCreate("binding", new PodBinding())
        .subresourceUpdate("ephemeralcontainers", PodUpdateSubresources.ephemeralContainers())
        .subresourceUpdate("resize", PodUpdateSubresources.resize())
        .subresourceConnect("log", PodConnect.log())
        .subresourceConnect("exec", PodConnect.stream())
        .subresourceConnect("attach", PodConnect.stream())
        .subresourceConnect("portforward", PodConnect.portForward())
        .subresourceConnect("proxy", PodConnect.proxy())
        .build();
  }

  /**
   * {@code SetDefaults_Pod} on top of the pod spec defaults (only on Pods, not on templates):
   * requests default to limits, service links are enabled, and host-network pods' ports get
   * their container port as host port.
   */
  static MapValue defaultPod(MapValue pod) {
    MapValue r = Nested.updateMap(pod, PodSpecDefaults::defaultPodSpec, "spec");
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    boolean hostNetwork = Nested.getOrNull(r, "spec", "hostNetwork")
        instanceof io.apiserver4j.core.BooleanValue b && b.value();
    for (String list : List.of("containers", "initContainers")) {
      r = Nested.updateListItems(r, c -> {
        MapValue out = requestsFromLimits(c);
        if (hostNetwork) {
          out = Nested.updateListItems(out, p -> {
            Value hp = p.getOrNull("hostPort");
            boolean unset = hp == null || (hp instanceof IntegerValue i && i.value() == 0);
            return unset && p.getOrNull("containerPort") != null
                ? p.with("hostPort", p.getOrNull("containerPort")) : p;
          }, "ports");
        }
        return out;
      }, "spec", list);
    }
    r = serviceAccountAlias(r);
    return Nested.setDefault(r, Value.of(true), "spec", "enableServiceLinks");
  }

  /**
   * kube's v1 conversion of {@code spec.serviceAccount}, the deprecated alias of
   * {@code spec.serviceAccountName}: read when the name is empty, and always written back as the
   * name, so a Pod comes back with both (as the ServiceAccount plugin's {@code default}).
   */
  static MapValue serviceAccountAlias(MapValue pod) {
    String name = Nested.str(pod, "spec", "serviceAccountName");
    String alias = Nested.str(pod, "spec", "serviceAccount");
    if (name.isEmpty() && !alias.isEmpty()) {
      pod = Nested.set(pod, Value.of(alias), "spec", "serviceAccountName");
      name = alias;
    }
    if (!name.isEmpty() && !name.equals(alias)) {
      pod = Nested.set(pod, Value.of(name), "spec", "serviceAccount");
    }
    return pod;
  }

  private static MapValue requestsFromLimits(MapValue c) {
    MapValue limits = Nested.mapOrNull(c, "resources", "limits");
    if (limits == null || limits.isEmpty()) {
      return c;
    }
    MapValue requests = Nested.mapOrNull(c, "resources", "requests");
    MapValue.Builder b = (requests == null ? MapValue.empty() : requests).toBuilder();
    for (int i = 0; i < limits.size(); i++) {
      if (!b.containsKey(limits.keyAt(i))) {
        b.put(limits.keyAt(i), limits.valueAt(i));
      }
    }
    MapValue merged = b.build();
    return merged.equals(requests) ? c : Nested.set(c, merged, "resources", "requests");
  }

  // kube deletes pods that never reached a node (or finished) immediately.
  private static long podGracePeriod(MapValue pod, OptionalLong requested) {
    String node = str(pod, "spec", "nodeName");
    String phase = str(pod, "status", "phase");
    if (node.isEmpty() || phase.equals("Failed") || phase.equals("Succeeded")) {
      return 0;
    }
    if (requested.isPresent()) {
      return requested.getAsLong();
    }
    return Nested.getOrNull(pod, "spec", "terminationGracePeriodSeconds") instanceof IntegerValue i
        ? i.value() : 0;
  }

  /**
   * kube's {@code qos.GetPodQOS}: BestEffort without cpu or memory requests and limits,
   * Guaranteed when every container limits both and requests equal limits, else Burstable.
   */
  static String qosClass(MapValue spec) {
    Map<String, BigDecimal> requests = new HashMap<>();
    Map<String, BigDecimal> limits = new HashMap<>();
    boolean guaranteed = true;
    List<MapValue> all = new ArrayList<>(items(spec.getOrNull("containers")));
    all.addAll(items(spec.getOrNull("initContainers")));
    for (MapValue c : all) {
      sumPositive(Nested.map(c, "resources", "requests"), requests);
      Set<String> found = sumPositive(Nested.map(c, "resources", "limits"), limits);
      if (!found.containsAll(List.of("cpu", "memory"))) {
        guaranteed = false;
      }
    }
    if (requests.isEmpty() && limits.isEmpty()) {
      return "BestEffort";
    }
    if (guaranteed) {
      for (Map.Entry<String, BigDecimal> e : requests.entrySet()) {
        BigDecimal lim = limits.get(e.getKey());
        if (lim == null || lim.compareTo(e.getValue()) != 0) {
          guaranteed = false;
          break;
        }
      }
    }
    return guaranteed && requests.size() == limits.size() ? "Guaranteed" : "Burstable";
  }

  private static Set<String> sumPositive(MapValue list, Map<String, BigDecimal> into) {
    Set<String> found = new HashSet<>();
    for (String name : List.of("cpu", "memory")) {
      Optional<BigDecimal> q = KubeValidation.quantity(
          KubeValidation.quantityString(list.getOrNull(name)));
      if (q.isPresent() && q.get().signum() > 0) {
        into.merge(name, q.get(), BigDecimal::add);
        found.add(name);
      }
    }
    return found;
  }
}
