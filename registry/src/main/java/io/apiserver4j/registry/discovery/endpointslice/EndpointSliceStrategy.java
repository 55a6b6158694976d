/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.discovery.endpointslice;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * discovery.k8s.io/v1 EndpointSlice, as kube's {@code pkg/registry/discovery/endpointslice}:
 * generation bumped by any change but metadata, {@code SetDefaults_EndpointPort} and
 * {@link EndpointSliceValidation}.
 */
public final class EndpointSliceStrategy {
  private EndpointSliceStrategy() {}

  /** The EndpointSlice's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.NON_METADATA)
        .defaulter(EndpointSliceStrategy::defaults)
        .validator(EndpointSliceValidation::validate)
        .build();
  }

  static MapValue defaults(MapValue slice) {
    return Nested.updateListItems(slice, p -> Nested.setDefault(
        Nested.setDefault(p, Value.of(""), "name"), Value.of("TCP"), "protocol"), "ports");
  }}
