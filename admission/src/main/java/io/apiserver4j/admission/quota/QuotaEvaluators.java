/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * kube's quota registry ({@code pkg/quota/v1/install} and {@code evaluator/core/registry.go}):
 * the evaluators of Pods, Services and PersistentVolumeClaims, object counts under their legacy
 * names for ConfigMaps, ResourceQuotas, ReplicationControllers and Secrets, and an object count
 * evaluator made on demand for any other resource; the resources quota ignores. Thread-safe.
 */
public final class QuotaEvaluators {
  /** Virtual resources and events, which kube's quota never counts. */
  private static final Set<GroupResource> IGNORED = Set.of(
      new GroupResource("", "bindings"),
      new GroupResource("", "componentstatuses"),
      new GroupResource("authentication.k8s.io", "tokenreviews"),
      new GroupResource("authentication.k8s.io", "selfsubjectreviews"),
      new GroupResource("authorization.k8s.io", "subjectaccessreviews"),
      new GroupResource("authorization.k8s.io", "selfsubjectaccessreviews"),
      new GroupResource("authorization.k8s.io", "localsubjectaccessreviews"),
      new GroupResource("authorization.k8s.io", "selfsubjectrulesreviews"),
      new GroupResource("", "events"),
      new GroupResource("events.k8s.io", "events"));
  private static final Map<GroupResource, String> LEGACY_COUNTS = Map.of(
      new GroupResource("", "configmaps"), "configmaps",
      new GroupResource("", "resourcequotas"), "resourcequotas",
      new GroupResource("", "replicationcontrollers"), "replicationcontrollers",
      new GroupResource("", "secrets"), "secrets");

  private final PodEvaluator pods;
  private final Map<GroupResource, QuotaEvaluator> evaluators = new LinkedHashMap<>();

  private QuotaEvaluators(Clock clock) {
    this.pods = new PodEvaluator(clock);
    evaluators.put(PodEvaluator.PODS, pods);
    evaluators.put(ServiceEvaluator.SERVICES, new ServiceEvaluator());
    evaluators.put(PersistentVolumeClaimEvaluator.CLAIMS, new PersistentVolumeClaimEvaluator());
    LEGACY_COUNTS.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e ->
        evaluators.put(e.getKey(), new ObjectCountEvaluator(e.getKey(), e.getValue())));
  }

  /**
   * kube's core evaluators, Pods judged terminating by {@code clock}.
   *
   * @param clock the server clock
   * @return a new registry
   */
  public static QuotaEvaluators core(Clock clock) {
    return new QuotaEvaluators(requireNonNull(clock, "clock"));
  }

  /**
   * The evaluator of {@code resource}, if registered.
   *
   * @param resource the resource
   * @return its evaluator
   */
  public synchronized Optional<QuotaEvaluator> get(GroupResource resource) {
    return Optional.ofNullable(evaluators.get(requireNonNull(resource, "resource")));
  }

  /**
   * The evaluator of {@code resource}, registering an object count evaluator first when there
   * is none (what kube's quota admission and quota monitors do for every other resource).
   *
   * @param resource the resource
   * @return its evaluator
   */
  public synchronized QuotaEvaluator getOrCount(GroupResource resource) {
    return evaluators.computeIfAbsent(requireNonNull(resource, "resource"),
        r -> new ObjectCountEvaluator(r, ""));
  }

  /** {@return every registered evaluator, in registration order} */
  public synchronized List<QuotaEvaluator> all() {
    return List.copyOf(new ArrayList<>(evaluators.values()));
  }

  /**
   * Whether quota ignores {@code resource} (kube's {@code ignoredResources}).
   *
   * @param resource the resource
   * @return whether it is never counted
   */
  public static boolean ignored(GroupResource resource) {
    return IGNORED.contains(resource);
  }

  /**
   * kube's {@code ObjectCountQuotaResourceNameFor}: {@code count/<resource>} for the core group,
   * {@code count/<resource>.<group>} otherwise.
   *
   * @param resource the resource
   * @return the quota resource name
   */
  public static String objectCountName(GroupResource resource) {
    return resource.group().isEmpty() ? "count/" + resource.resource()
        : "count/" + resource.resource() + "." + resource.group();
  }

  /**
   * kube's replenishment update filter ({@code install.DefaultUpdateFilter}): whether an update
   * of an object from {@code old} to {@code cur} can lower what its quotas use — a Pod that
   * became terminal, a Service whose quota type changed, a claim whose allocated storage or
   * attribute classes changed.
   *
   * @param resource the object's resource
   * @param old the object before
   * @param cur the object after
   * @return whether its namespace's quotas need recalculating
   */
  public boolean requiresReplenish(GroupResource resource, MapValue old, MapValue cur) {
    if (resource.equals(PodEvaluator.PODS)) {
      return pods.requiresReplenish(old, cur);
    }
    if (resource.equals(ServiceEvaluator.SERVICES)) {
      return !ServiceEvaluator.quotaServiceType(old).equals(ServiceEvaluator.quotaServiceType(cur));
    }
    if (resource.equals(PersistentVolumeClaimEvaluator.CLAIMS)) {
      return PersistentVolumeClaimEvaluator.requiresReplenish(cur, old);
    }
    return false;
  }
}
