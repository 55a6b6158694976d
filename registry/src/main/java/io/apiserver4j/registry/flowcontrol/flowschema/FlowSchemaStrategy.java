/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.flowcontrol.flowschema;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * kube's pkg/registry/flowcontrol/flowschema strategy: any path segment is a valid name, the
 * generation follows the spec, kube's {@code SetDefaults_FlowSchemaSpec} and
 * {@code ValidateFlowSchema}.
 */
public final class FlowSchemaStrategy {
  private FlowSchemaStrategy() {}

  /** The FlowSchema strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(FlowSchemaStrategy::defaultFlowSchema)
        .validator((o, old) -> FlowSchemaValidation.validateFlowSchema(o))
        .build();
  }

  /** kube's {@code SetDefaults_FlowSchemaSpec}: precedence 0 (or absent) means 1000. */
  private static MapValue defaultFlowSchema(MapValue o) {
    if (!(o.getOrNull("spec") instanceof MapValue)) {
      return o;
    }
    return GroupRules.integer(o, "spec", "matchingPrecedence").orElse(0L) == 0
        ? Nested.set(o, Value.of(1000L), "spec", "matchingPrecedence") : o;
  }
}
