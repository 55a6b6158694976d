/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import io.apiserver4j.admission.Operation;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * kube's {@code podEvaluator} ({@code pkg/quota/v1/evaluator/core/pods.go}): {@code count/pods}
 * for every Pod; for a Pod that is not terminal (and not past its deletion grace period) also
 * {@code pods}, {@code cpu}/{@code requests.cpu}, {@code memory}/{@code requests.memory},
 * {@code ephemeral-storage}/{@code requests.ephemeral-storage}, the {@code limits.*}, hugepages
 * and {@code requests.<extended resource>}, from the Pod's effective requests and limits
 * ({@code PodRequests}/{@code PodLimits}: containers and sidecars add up, a plain init container
 * raises the total to its own need, pod-level resources replace CPU and memory, the overhead
 * adds to requests and to the limits set). Scopes: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass,
 * CrossNamespacePodAffinity. Charged on create.
 */
final class PodEvaluator implements QuotaEvaluator {
  static final GroupResource PODS = new GroupResource("", "pods");
  private static final List<String> RESOURCES = List.of("count/pods", "cpu", "memory",
      "ephemeral-storage", "requests.cpu", "requests.memory", "requests.ephemeral-storage",
      "limits.cpu", "limits.memory", "limits.ephemeral-storage", "pods");
  private static final List<String> PREFIXES = List.of("hugepages-", "requests.hugepages-");
  /** Resources a quota on which obliges every container to state them (a kube mistake kept). */
  private static final Set<String> VALIDATION_SET = Set.of("cpu", "memory", "requests.cpu",
      "requests.memory", "limits.cpu", "limits.memory");
  private static final Set<String> POD_LEVEL = Set.of("cpu", "memory");

  private final Clock clock;

  PodEvaluator(Clock clock) {
    this.clock = clock;
  }

  @Override
  public GroupResource groupResource() {
    return PODS;
  }

  @Override
  public boolean handles(Operation operation, String subresource) {
    if (!subresource.isEmpty() && !subresource.equals("resize")) {
      return false;
    }
    return operation == Operation.CREATE
        || (subresource.equals("resize") && operation == Operation.UPDATE);
  }

  @Override
  public List<String> matchingResources(Collection<String> input) {
    List<String> out = new ArrayList<>();
    for (String r : input) {
      if (RESOURCES.contains(r)) {
        out.add(r);
      }
    }
    for (String r : input) {
      if (PREFIXES.stream().anyMatch(r::startsWith)) {
        out.add(r);
      }
      if (isExtendedResourceNameForQuota(r)) {
        out.add(r);
      }
    }
    return out;
  }

  /** kube's {@code helper.IsNativeResource}: unprefixed, or prefixed by kubernetes.io/. */
  private static boolean isNative(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  private static boolean isExtendedResourceNameForQuota(String name) {
    return !isNative(name) && name.startsWith("requests.");
  }

  /** kube's {@code helper.IsExtendedResourceName}, for names a container requests. */
  private static boolean isExtendedResourceName(String name) {
    return !isNative(name) && !name.startsWith("requests.");
  }

  @Override
  public Optional<String> constraints(Collection<String> required, MapValue pod) {
    Set<String> requiredSet = new TreeSet<>(required);
    requiredSet.retainAll(VALIDATION_SET);
    Map<String, Set<String>> missing = new TreeMap<>();
    for (String key : List.of("containers", "initContainers")) {
      for (Value c : Nested.list(pod, "spec", key)) {
        Set<String> has = computeUsage(
            ResourceLists.fromValue(Nested.getOrNull(c, "resources", "requests")),
            ResourceLists.fromValue(Nested.getOrNull(c, "resources", "limits"))).keySet();
        for (String r : requiredSet) {
          if (!has.contains(r)) {
            missing.computeIfAbsent(r, k -> new TreeSet<>()).add(Nested.str(c, "name"));
          }
        }
      }
    }
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    List<String> messages = new ArrayList<>();
    missing.forEach((r, names) -> messages.add(r + " for: " + String.join(",", names)));
    return Optional.of("must specify " + String.join("; ", messages));
  }

  @Override
  public boolean matchesScope(ScopeRequirement s, MapValue pod) {
    return switch (s.scopeName()) {
      case "Terminating" -> isTerminating(pod);
      case "NotTerminating" -> !isTerminating(pod);
      case "BestEffort" -> isBestEffort(pod);
      case "NotBestEffort" -> !isBestEffort(pod);
      case "PriorityClass" -> s.operator().equals(ScopeRequirement.EXISTS)
          ? !Nested.str(pod, "spec", "priorityClassName").isEmpty()
          : s.selects(Nested.str(pod, "spec", "priorityClassName"));
      case "CrossNamespacePodAffinity" -> usesCrossNamespacePodAffinity(pod);
      default -> false;
    };
  }

  @Override
  public SortedMap<String, Quantity> usage(MapValue pod) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    out.put("count/pods", ResourceLists.of(1));
    if (!countsCompute(pod, clock.instant())) {
      return out;
    }
    return new TreeMap<>(ResourceLists.add(out,
        computeUsage(podTotal(pod, "requests"), podTotal(pod, "limits"))));
  }

  /** kube's {@code podComputeUsageHelper}. */
  static SortedMap<String, Quantity> computeUsage(Map<String, Quantity> requests,
      Map<String, Quantity> limits) {
    SortedMap<String, Quantity> out = new TreeMap<>();
    out.put("pods", ResourceLists.of(1));
    for (String r : List.of("cpu", "memory", "ephemeral-storage")) {
      if (requests.containsKey(r)) {
        out.put(r, requests.get(r));
        out.put("requests." + r, requests.get(r));
      }
      if (limits.containsKey(r)) {
        out.put("limits." + r, limits.get(r));
      }
    }
    requests.forEach((r, q) -> {
      if (r.startsWith("hugepages-")) {
        out.put(r, q);
        out.put("requests." + r, q);
      }
      if (isExtendedResourceName(r)) {
        out.put("requests." + r, q);
      }
    });
    return out;
  }

  /**
   * kube's {@code QuotaV1Pod}: a Pod counts unless terminal (Succeeded, Failed) or past its
   * deletion time plus grace period on the clock.
   *
   * @param pod the Pod
   * @param now the clock's time
   * @return whether its compute resources count
   */
  static boolean countsCompute(MapValue pod, Instant now) {
    String phase = Nested.str(pod, "status", "phase");
    if (phase.equals("Failed") || phase.equals("Succeeded")) {
      return false;
    }
    String deletion = Nested.str(pod, "metadata", "deletionTimestamp");
    if (!deletion.isEmpty() && Nested.has(pod, "metadata", "deletionGracePeriodSeconds")) {
      try {
        Instant due = Instant.parse(deletion).plusSeconds(
            Nested.integer(pod, "metadata", "deletionGracePeriodSeconds"));
        if (now.isAfter(due)) {
          return false;
        }
      } catch (DateTimeParseException e) {
        // validation refuses such a timestamp; a Pod without a readable one keeps counting
        return true;
      }
    }
    return true;
  }

  /** kube's {@code PodRequests}/{@code PodLimits} without in-place resize. */
  static SortedMap<String, Quantity> podTotal(MapValue pod, String kind) {
    SortedMap<String, Quantity> total = new TreeMap<>();
    for (Value c : Nested.list(pod, "spec", "containers")) {
      addInto(total, ResourceLists.fromValue(Nested.getOrNull(c, "resources", kind)));
    }
    SortedMap<String, Quantity> sidecars = new TreeMap<>();
    SortedMap<String, Quantity> init = new TreeMap<>();
    for (Value c : Nested.list(pod, "spec", "initContainers")) {
      Map<String, Quantity> own = ResourceLists.fromValue(Nested.getOrNull(c, "resources", kind));
      Map<String, Quantity> need;
      if (Nested.str(c, "restartPolicy").equals("Always")) {
        addInto(total, own);
        addInto(sidecars, own);
        need = sidecars;
      } else {
        SortedMap<String, Quantity> tmp = new TreeMap<>();
        addInto(tmp, own);
        addInto(tmp, sidecars);
        need = tmp;
      }
      maxInto(init, need);
    }
    maxInto(total, init);
    Map<String, Quantity> podLevel = ResourceLists.fromValue(
        Nested.getOrNull(pod, "spec", "resources", kind));
    podLevel.forEach((r, q) -> {
      if (POD_LEVEL.contains(r)) {
        total.put(r, q);
      }
    });
    Map<String, Quantity> overhead = ResourceLists.fromValue(
        Nested.getOrNull(pod, "spec", "overhead"));
    if (kind.equals("requests")) {
      addInto(total, overhead);
    } else {
      // a limit grows by the overhead only where the Pod has one: no limit stays unlimited
      overhead.forEach((k, v) -> total.computeIfPresent(k, (n, q) -> ResourceLists.plus(q, v)));
    }
    return total;
  }

  private static void addInto(Map<String, Quantity> into, Map<String, Quantity> list) {
    list.forEach((k, v) -> into.merge(k, v, ResourceLists::plus));
  }

  private static void maxInto(Map<String, Quantity> into, Map<String, Quantity> list) {
    list.forEach((k, v) -> into.merge(k, v, (a, b) -> b.compareTo(a) > 0 ? b : a));
  }

  private static boolean isTerminating(MapValue pod) {
    return Nested.has(pod, "spec", "activeDeadlineSeconds")
        && Nested.integer(pod, "spec", "activeDeadlineSeconds") >= 0;
  }

  /** kube's {@code qos.GetPodQOS}: the status's class if set, else computed. */
  static boolean isBestEffort(MapValue pod) {
    String recorded = Nested.str(pod, "status", "qosClass");
    if (!recorded.isEmpty()) {
      return recorded.equals("BestEffort");
    }
    List<Value> holders = new ArrayList<>();
    holders.addAll(Nested.list(pod, "spec", "containers"));
    holders.addAll(Nested.list(pod, "spec", "initContainers"));
    if (Nested.has(pod, "spec", "resources")) {
      holders.add(MapValue.ofEntries("resources", Nested.map(pod, "spec", "resources")));
    }
    for (Value c : holders) {
      for (String kind : List.of("requests", "limits")) {
        for (Map.Entry<String, Quantity> e : ResourceLists.fromValue(
            Nested.getOrNull(c, "resources", kind)).entrySet()) {
          if (POD_LEVEL.contains(e.getKey()) && e.getValue().value().signum() != 0) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean usesCrossNamespacePodAffinity(MapValue pod) {
    for (String affinity : List.of("podAffinity", "podAntiAffinity")) {
      MapValue a = Nested.map(pod, "spec", "affinity", affinity);
      for (Value t : Nested.list(a, "requiredDuringSchedulingIgnoredDuringExecution")) {
        if (crossNamespace(t)) {
          return true;
        }
      }
      for (Value t : Nested.list(a, "preferredDuringSchedulingIgnoredDuringExecution")) {
        if (crossNamespace(Nested.getOrNull(t, "podAffinityTerm"))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean crossNamespace(Value term) {
    return !Nested.list(term, "namespaces").isEmpty() || Nested.has(term, "namespaceSelector");
  }

  /** The replenishment filter for Pods: one that stops counting compute. */
  boolean requiresReplenish(MapValue old, MapValue pod) {
    Instant now = clock.instant();
    return countsCompute(old, now) && !countsCompute(pod, now);
  }
}
