/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.prioritylevelconfiguration;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * kube's pkg/registry/flowcontrol/prioritylevelconfiguration strategy: any path segment is a
 * valid name, the generation follows the spec, kube's limited/exempt and queuing defaults and
 * {@code ValidatePriorityLevelConfiguration}.
 */
public final class PriorityLevelConfigurationStrategy {
  private PriorityLevelConfigurationStrategy() {}

  /** The PriorityLevelConfiguration strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(PriorityLevelConfigurationStrategy::defaultPriorityLevel)
        .validator((o, old) -> PriorityLevelConfigurationValidation.validatePriorityLevel(o))
        .build();
  }

  /** kube's limited/exempt and queuing defaults. */
  private static MapValue defaultPriorityLevel(MapValue o) {
    MapValue r = Nested.updateMap(o, l -> {
      MapValue x = Nested.setDefault(l, Value.of(30L), "nominalConcurrencyShares");
      x = Nested.setDefault(x, Value.of(0L), "lendablePercent");
      return Nested.updateMap(x, q -> {
        MapValue y = q;
        y = zeroDefault(y, "handSize", 8);
        y = zeroDefault(y, "queues", 64);
        return zeroDefault(y, "queueLengthLimit", 50);
      }, "limitResponse", "queuing");
    }, "spec", "limited");
    return Nested.updateMap(r, e -> {
      MapValue x = Nested.setDefault(e, Value.of(0L), "nominalConcurrencyShares");
      return Nested.setDefault(x, Value.of(0L), "lendablePercent");
    }, "spec", "exempt");
  }

  private static MapValue zeroDefault(MapValue m, String key, long value) {
    return GroupRules.integer(m, key).orElse(0L) == 0 ? m.with(key, Value.of(value)) : m;
  }
}
