/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.quota;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.BiFunction;

/**
 * What the resourcequota controller writes to a quota's status ({@code syncResourceQuota} of
 * {@code pkg/controller/resourcequota/resource_quota_controller.go}, with
 * {@code quota.CalculateUsage} and {@code generic.CalculateUsageStats}): {@code status.hard}
 * from {@code spec.hard}, {@code status.used} recounted from the namespace's objects for every
 * hard resource an evaluator tracks, the last observed value kept for the others.
 *
 * @param hard the new {@code status.hard}
 * @param used the new {@code status.used}
 * @param dirty whether the status differs from the quota's and must be written
 * @param errors the resources that could not be listed (their last usage is kept)
 */
public record QuotaUsage(SortedMap<String, Quantity> hard, SortedMap<String, Quantity> used,
    boolean dirty, List<GroupResource> errors) {

  /**
   * Copies the components.
   *
   * @param hard see the record component
   * @param used see the record component
   * @param dirty see the record component
   * @param errors see the record component
   */
  public QuotaUsage {
    hard = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(hard));
    used = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(used));
    errors = List.copyOf(errors);
  }

  /**
   * Recalculates {@code quota}.
   *
   * @param quota a ResourceQuota
   * @param evaluators the evaluators to measure with
   * @param lister the objects of a resource in a namespace, or empty when they cannot be listed
   * @return the new status and whether it changed
   */
  public static QuotaUsage recalculate(MapValue quota, QuotaEvaluators evaluators,
      BiFunction<GroupResource, String, Optional<List<MapValue>>> lister) {
    requireNonNull(quota, "quota");
    Map<String, Quantity> specHard = ResourceLists.fromValue(Nested.getOrNull(quota, "spec", "hard"));
    boolean statusHard = Nested.has(quota, "status", "hard");
    boolean statusUsed = Nested.has(quota, "status", "used");
    Map<String, Quantity> oldHard = ResourceLists.fromValue(
        Nested.getOrNull(quota, "status", "hard"));
    Map<String, Quantity> oldUsed = ResourceLists.fromValue(
        Nested.getOrNull(quota, "status", "used"));
    boolean dirty = !ResourceLists.equal(specHard, oldHard) || !statusHard || !statusUsed;

    String namespace = Meta.metaString(quota, "namespace");
    List<ScopeRequirement> scopes = ScopeRequirement.ofQuota(quota);
    Set<String> hardNames = specHard.keySet();
    Set<String> matched = new LinkedHashSet<>();
    for (QuotaEvaluator e : evaluators.all()) {
      matched.addAll(e.matchingResources(hardNames));
    }
    SortedMap<String, Quantity> newUsage = new TreeMap<>();
    List<GroupResource> errors = new ArrayList<>();
    for (QuotaEvaluator e : evaluators.all()) {
      List<String> intersection = e.matchingResources(matched);
      if (intersection.isEmpty()) {
        continue;
      }
      Optional<List<MapValue>> items = lister.apply(e.groupResource(), namespace);
      if (items.isEmpty()) {
        errors.add(e.groupResource());
        matched.removeAll(intersection);
        continue;
      }
      newUsage = new TreeMap<>(ResourceLists.add(newUsage,
          usageStats(e, intersection, scopes, items.get())));
    }
    SortedMap<String, Quantity> used = new TreeMap<>(oldUsed);
    used.putAll(ResourceLists.mask(newUsage, matched));
    used = new TreeMap<>(ResourceLists.mask(used, hardNames));
    dirty = dirty || !ResourceLists.equal(used, oldUsed);
    return new QuotaUsage(new TreeMap<>(specHard), used, dirty, errors);
  }

  /** kube's {@code generic.CalculateUsageStats}: zero for each resource, plus each match. */
  private static Map<String, Quantity> usageStats(QuotaEvaluator e, List<String> resources,
      List<ScopeRequirement> scopes, List<MapValue> items) {
    Map<String, Quantity> used = new TreeMap<>();
    for (String r : resources) {
      used.put(r, ResourceLists.zero());
    }
    for (MapValue item : items) {
      boolean matches = true;
      for (ScopeRequirement s : scopes) {
        matches = matches && e.matchesScope(s, item);
      }
      if (matches) {
        used = new TreeMap<>(ResourceLists.add(used, e.usage(item)));
      }
    }
    return used;
  }

  /**
   * The status as kube writes it: {@code hard} and {@code used}, quantities canonical.
   *
   * @return the {@code status} value
   */
  public MapValue status() {
    return MapValue.ofEntries("hard", ResourceLists.toValue(hard), "used",
        ResourceLists.toValue(used));
  }
}
