/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.resourceclaim;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.Nested;
import io.apiserver4j.registry.resource.validation.ClaimSpecDefaults;
import io.apiserver4j.registry.resource.validation.ClaimSpecValidation;

/**
 * kube's pkg/registry/resource/resourceclaim strategy: kube's device request defaults and the
 * claim spec rules; the spec never changes after create.
 */
public final class ResourceClaimStrategy {
  private ResourceClaimStrategy() {}

  /** The ResourceClaim strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, ClaimSpecDefaults::defaultClaimSpec, "spec"))
        .validator((o, old) -> ClaimSpecValidation.validateClaim(o, old, "spec"))
        .build();
  }
}
