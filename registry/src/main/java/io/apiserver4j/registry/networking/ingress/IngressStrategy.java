/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingress;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * networking.k8s.io/v1 Ingress, as kube's {@code pkg/registry/networking/ingress}: generation
 * bumped by spec changes and {@link IngressValidation}.
 */
public final class IngressStrategy {
  private IngressStrategy() {}

  /** The Ingress's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(IngressValidation::validate)
        .build();
  }
}
