/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code validateResourceRequirements} for containers and the pod-level resources:
 * resource names, quantities, requests within limits, hugepages, and
 * {@code validatePodResourceConsistency}. Stateless.
 */
final class ResourceValidation {
  private static final Set<String> STANDARD_RESOURCES = Set.of("cpu", "memory",
      "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods", "services",
      "replicationcontrollers", "resourcequotas", "secrets", "configmaps",
      "persistentvolumeclaims", "storage", "requests.storage", "services.nodeports",
      "services.loadbalancers");

  private ResourceValidation() {}

  /**
   * {@code validateResourceRequirements} for a container ({@code pod} false) or the pod-level
   * resources: names, non-negative (and for extended resources integer) quantities, requests
   * within limits (equal for resources that cannot be overcommitted), hugepages.
   */
  static void resources(MapValue resources, String path, boolean pod, Set<String> podClaims,
      List<FieldError> errs) {
    MapValue limits = Nested.map(resources, "limits");
    MapValue requests = Nested.map(resources, "requests");
    boolean cpuOrMemory = false;
    boolean hugePages = false;
    for (int i = 0; i < limits.size(); i++) {
      String name = limits.keyAt(i);
      String at = path + ".limits[" + name + "]";
      resourceName(name, at, pod, errs);
      Optional<Quantity> q = Quantity.parse(KubeValidation.quantityString(limits.valueAt(i)));
      q.ifPresent(v -> quantityValue(name, v, at, errs));
      if (isHugePages(name)) {
        hugePages = true;
        q.ifPresent(v -> hugePageValue(name, v, at, errs));
      }
      cpuOrMemory |= name.equals("cpu") || name.equals("memory");
    }
    for (int i = 0; i < requests.size(); i++) {
      String name = requests.keyAt(i);
      String at = path + ".requests[" + name + "]";
      resourceName(name, at, pod, errs);
      Optional<Quantity> q = Quantity.parse(KubeValidation.quantityString(requests.valueAt(i)));
      q.ifPresent(v -> quantityValue(name, v, at, errs));
      Optional<Quantity> limit = Optional.ofNullable(limits.getOrNull(name))
          .flatMap(l -> Quantity.parse(KubeValidation.quantityString(l)));
      if (q.isPresent() && limit.isPresent()) {
        int cmp = q.get().compareTo(limit.get());
        if (cmp != 0 && !overcommitAllowed(name)) {
          errs.add(FieldError.invalid(path + ".requests", Value.of(q.get().toString()),
              "must be equal to " + name + " limit of " + limit.get()));
        } else if (cmp > 0) {
          errs.add(FieldError.invalid(path + ".requests", Value.of(q.get().toString()),
              "must be less than or equal to " + name + " limit of " + limit.get()));
        }
      } else if (!limits.containsKey(name) && !overcommitAllowed(name)) {
        errs.add(FieldError.required(path + ".limits",
            "Limit must be set for non overcommitable resources"));
      }
      if (isHugePages(name)) {
        hugePages = true;
        q.ifPresent(v -> hugePageValue(name, v, at, errs));
      }
      cpuOrMemory |= name.equals("cpu") || name.equals("memory");
    }
    if (!cpuOrMemory && hugePages) {
      errs.add(FieldError.forbidden(path, "HugePages require cpu or memory"));
    }
    ResourceClaimValidation.claimReferences(items(resources.getOrNull("claims")), podClaims,
        path + ".claims", errs);
  }

  private static void resourceName(String name, String path, boolean pod, List<FieldError> errs) {
    List<String> msgs = MetaValidation.qualifiedName(name);
    if (!msgs.isEmpty()) {
      msgs.forEach(m -> errs.add(FieldError.invalid(path, Value.of(name), m)));
    } else if (!name.contains("/") && !STANDARD_RESOURCES.contains(name) && !isHugePages(name)) {
      errs.add(FieldError.invalid(path, Value.of(name),
          "must be a standard resource type or fully qualified"));
    }
    if (pod) {
      // validatePodResourceName: only cpu, memory and hugepages at pod level
      if (!name.equals("cpu") && !name.equals("memory") && !isHugePages(name)) {
        errs.add(FieldError.notSupported(path, Value.of(name), List.of("cpu", "memory")));
      }
      return;
    }
    if (!name.contains("/")) {
      if (!name.equals("cpu") && !name.equals("memory") && !name.equals("ephemeral-storage")
          && !isHugePages(name)) {
        errs.add(FieldError.invalid(path, Value.of(name),
            "must be a standard resource for containers"));
      }
    } else if (!isNative(name) && !isExtended(name)) {
      errs.add(FieldError.invalid(path, Value.of(name),
          "doesn't follow extended resource name standard"));
    }
  }

  private static void quantityValue(String name, Quantity q, String path, List<FieldError> errs) {
    GroupRules.nonNegative(errs, path, q);
    if (isExtended(name) && !q.isInteger()) {
      errs.add(FieldError.invalid(path, Value.of(q.toString()), "must be an integer"));
    }
  }

  private static void hugePageValue(String name, Quantity q, String path, List<FieldError> errs) {
    Optional<Quantity> size = Quantity.parse(name.substring("hugepages-".length()));
    boolean divisible = size.isPresent() && size.get().value().signum() > 0
        && size.get().isInteger() && q.value().setScale(0, java.math.RoundingMode.CEILING)
            .remainder(size.get().value()).signum() == 0;
    if (!divisible) {
      errs.add(FieldError.invalid(path, Value.of(q.toString()),
          q + " is not positive integer multiple of " + name));
    }
  }

  static boolean isHugePages(String name) {
    return name.startsWith("hugepages-");
  }

  private static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  private static boolean isExtended(String name) {
    return !isNative(name) && !name.startsWith("requests.")
        && MetaValidation.qualifiedName("requests." + name).isEmpty();
  }

  private static boolean overcommitAllowed(String name) {
    return isNative(name) && !isHugePages(name);
  }

  /**
   * {@code validatePodResourceConsistency}: pod-level requests cover the containers' summed
   * requests, and no container limit exceeds the pod's.
   */
  static void podResources(MapValue spec, String path, Set<String> podClaims,
      List<FieldError> errs) {
    if (!(spec.getOrNull("resources") instanceof MapValue res)) {
      return;
    }
    if (res.getOrNull("claims") instanceof ListValue) {
      errs.add(FieldError.forbidden(path + ".claims",
          "claims cannot be set for Resources at pod-level"));
    }
    resources(res, path, true, podClaims, errs);
    Map<String, BigDecimal> sum = new java.util.TreeMap<>();
    for (MapValue c : items(spec.getOrNull("containers"))) {
      MapValue req = Nested.map(c, "resources", "requests");
      for (int i = 0; i < req.size(); i++) {
        String name = req.keyAt(i);
        Quantity.parse(KubeValidation.quantityString(req.valueAt(i)))
            .ifPresent(q -> sum.merge(name, q.value(), BigDecimal::add));
      }
    }
    MapValue podRequests = Nested.map(res, "requests");
    for (Map.Entry<String, BigDecimal> e : sum.entrySet()) {
      Quantity pod = Optional.ofNullable(podRequests.getOrNull(e.getKey()))
          .flatMap(v -> Quantity.parse(KubeValidation.quantityString(v)))
          .orElse(new Quantity(BigDecimal.ZERO, Quantity.DECIMAL_SI));
      if (e.getValue().compareTo(pod.value()) > 0) {
        errs.add(FieldError.invalid(path + ".requests[" + e.getKey() + "]",
            Value.of(pod.toString()), "must be greater than or equal to aggregate container"
                + " requests of " + new Quantity(e.getValue(), pod.format())));
      }
    }
    MapValue podLimits = Nested.map(res, "limits");
    List<MapValue> containers = items(spec.getOrNull("containers"));
    for (int i = 0; i < containers.size(); i++) {
      MapValue lim = Nested.map(containers.get(i), "resources", "limits");
      for (int k = 0; k < lim.size(); k++) {
        String name = lim.keyAt(k);
        Optional<Quantity> pod = Optional.ofNullable(podLimits.getOrNull(name))
            .flatMap(v -> Quantity.parse(KubeValidation.quantityString(v)));
        Optional<Quantity> ctr = Quantity.parse(KubeValidation.quantityString(lim.valueAt(k)));
        if (pod.isPresent() && ctr.isPresent() && ctr.get().compareTo(pod.get()) > 0) {
          errs.add(FieldError.invalid(path + ".containers[" + i + "][" + name + "].limits",
              Value.of(ctr.get().toString()),
              "must be less than or equal to pod limits of " + pod.get()));
        }
      }
    }
  }
}
