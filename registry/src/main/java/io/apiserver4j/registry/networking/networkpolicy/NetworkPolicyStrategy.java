/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.networkpolicy;

import static io.apiserver4j.apimachinery.validation.GroupValidation.list;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * networking.k8s.io/v1 NetworkPolicy, as kube's {@code pkg/registry/networking/networkpolicy}:
 * generation bumped by spec changes, {@code SetDefaults_NetworkPolicy} (port protocols, policy
 * types) and {@link NetworkPolicyValidation}.
 */
public final class NetworkPolicyStrategy {
  private NetworkPolicyStrategy() {}

  /** The NetworkPolicy's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(NetworkPolicyStrategy::defaults)
        .validator(NetworkPolicyValidation::validate)
        .build();
  }

  static MapValue defaults(MapValue np) {
    MapValue r = np;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    for (String dir : List.of("ingress", "egress")) {
      r = Nested.updateListItems(r, rule -> Nested.updateListItems(rule,
          p -> Nested.setDefault(p, Value.of("TCP"), "protocol"), "ports"), "spec", dir);
    }
    if (Nested.list(r, "spec", "policyTypes").isEmpty()) {
      List<Value> types = new ArrayList<>(List.of(Value.of("Ingress")));
      if (!Nested.list(r, "spec", "egress").isEmpty()) {
        types.add(Value.of("Egress"));
      }
      r = Nested.set(r, Value.list(types), "spec", "policyTypes");
    }
    return r;
  }
}
