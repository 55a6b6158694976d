/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.resourcequota;

import io.apiserver4j.admission.quota.ScopeRequirement;
import io.apiserver4j.apimachinery.validation.GroupRules.Quantity;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One {@code limitedResources} entry of the ResourceQuota plugin's configuration
 * ({@code ResourceQuotaConfiguration} in the admission configuration file): consumption of
 * {@code resource} whose resource names contain one of {@code matchContains}, or an object in one
 * of {@code matchScopes}, is refused unless a quota of the namespace covers it.
 *
 * @param resource the limited resource
 * @param matchContains substrings of the consumed resource names that need a covering quota
 * @param matchScopes scopes that need a covering quota
 */
record LimitedResource(GroupResource resource, List<String> matchContains,
    List<ScopeRequirement> matchScopes) {

  LimitedResource {
    matchContains = List.copyOf(matchContains);
    matchScopes = List.copyOf(matchScopes);
  }

  /**
   * The entries of the plugin's configuration, validated as kube's
   * {@code ValidateConfiguration} does.
   *
   * @throws IllegalArgumentException when an entry names no resource (kube then refuses to start)
   */
  static List<LimitedResource> ofConfiguration(Optional<MapValue> configuration) {
    List<LimitedResource> out = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    List<Value> entries = configuration.map(c -> Nested.list(c, "limitedResources"))
        .orElse(List.of());
    for (int i = 0; i < entries.size(); i++) {
      Value e = entries.get(i);
      String resource = Nested.str(e, "resource");
      if (resource.isEmpty()) {
        errors.add("limitedResources[" + i + "].resource: Required value");
        continue;
      }
      List<String> contains = new ArrayList<>();
      Nested.list(e, "matchContains").forEach(v -> contains.add(Nested.str(v)));
      out.add(new LimitedResource(new GroupResource(Nested.str(e, "apiGroup"), resource),
          contains, ScopeRequirement.ofList(Nested.list(e, "matchScopes"))));
    }
    if (!errors.isEmpty()) {
      // an aggregate of one error prints as the error alone, of several as "[a, b]"
      throw new IllegalArgumentException(errors.size() == 1 ? errors.get(0)
          : "[" + String.join(", ", errors) + "]");
    }
    return List.copyOf(out);
  }

  /**
   * kube's {@code limitedByDefault}: the names of {@code usage} consumed (positive) that contain
   * a {@code matchContains} entry of one of {@code limited}.
   */
  static Set<String> limitedByDefault(Map<String, Quantity> usage, List<LimitedResource> limited) {
    Set<String> out = new TreeSet<>();
    for (LimitedResource l : limited) {
      usage.forEach((name, q) -> {
        if (q.value().signum() > 0 && l.matchContains().stream().anyMatch(name::contains)) {
          out.add(name);
        }
      });
    }
    return out;
  }
}
