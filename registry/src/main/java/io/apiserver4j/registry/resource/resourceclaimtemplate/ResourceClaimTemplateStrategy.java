/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.resourceclaimtemplate;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.Nested;
import io.apiserver4j.registry.resource.validation.ClaimSpecDefaults;
import io.apiserver4j.registry.resource.validation.ClaimSpecValidation;

/**
 * kube's pkg/registry/resource/resourceclaimtemplate strategy: kube's device request defaults
 * and the claim spec rules for the template's {@code spec.spec}; the spec never changes after
 * create.
 */
public final class ResourceClaimTemplateStrategy {
  private ResourceClaimTemplateStrategy() {}

  /** The ResourceClaimTemplate strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, ClaimSpecDefaults::defaultClaimSpec, "spec",
            "spec"))
        .validator((o, old) -> ClaimSpecValidation.validateClaim(o, old, "spec.spec"))
        .build();
  }
}
