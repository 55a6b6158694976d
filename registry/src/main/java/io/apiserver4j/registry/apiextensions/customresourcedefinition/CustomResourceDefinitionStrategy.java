/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apiextensions.customresourcedefinition;

import io.apiserver4j.apiextensions.CustomResourceDefinitionValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;

/**
 * kube's apiextensions-apiserver pkg/registry/customresourcedefinition strategy: the generation
 * changes with anything but metadata, updates need a resource version, kube's v1 defaults of
 * the names and conversion strategy, and {@link CustomResourceDefinitionValidation} (on the status
 * subresource only the accepted names, as kube's status strategy).
 */
public final class CustomResourceDefinitionStrategy {
  private CustomResourceDefinitionStrategy() {}

  /** The CustomResourceDefinition strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.NON_METADATA)
        .allowUnconditionalUpdate(false)
        .defaulter(CustomResourceDefinitionStrategy::defaultCrd)
        .validator((o, old) -> CustomResourceDefinitionValidation.validate(o, old))
        // kube's ValidateUpdateCustomResourceDefinitionStatus: the accepted names only, so the
        // establishing controllers' status writes do not validate the schemas again
        .statusValidator((o, old) -> CustomResourceDefinitionValidation.names(
            Nested.map(o, "status", "acceptedNames"), "status.acceptedNames"))
        .build();
  }

  private static MapValue defaultCrd(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    if (Nested.getOrNull(r, "spec", "names", "kind") instanceof StringValue k
        && !k.value().isEmpty()) {
      r = Nested.setDefault(r, Value.of(k.value().toLowerCase(java.util.Locale.ROOT)), "spec",
          "names", "singular");
      r = Nested.setDefault(r, Value.of(k.value() + "List"), "spec", "names", "listKind");
    }
    r = Nested.setDefault(r, Value.of("None"), "spec", "conversion", "strategy");
    return r;
  }
}
