/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import java.util.List;
import java.util.Optional;

/**
 * A subresource of a {@link KubeResource}, e.g. {@code status}, {@code scale} or
 * {@code eviction}.
 *
 * @param name the subresource name, e.g. {@code scale}
 * @param kind the kind its requests and responses carry (the parent's kind for {@code status};
 *     {@code autoscaling/v1 Scale} for {@code scale}; {@code policy/v1 Eviction} for
 *     {@code pods/eviction}, ...)
 * @param verbs its verbs, sorted as discovery lists them
 * @param schemaType the name of {@code kind}'s type in the schemas, empty for the option kinds
 *     the OpenAPI documents do not define (e.g. {@code PodExecOptions})
 */
public record KubeSubresource(String name, GroupVersionKind kind, List<String> verbs,
    String schemaType) {

  /**
   * Checks that no component is null and copies the verbs.
   *
   * @throws NullPointerException when a component is null
   * @param name see the record component
   * @param kind see the record component
   * @param verbs see the record component
   * @param schemaType see the record component
   */
  public KubeSubresource {
    requireNonNull(name, "name");
    requireNonNull(kind, "kind");
    verbs = List.copyOf(verbs);
    requireNonNull(schemaType, "schemaType");
  }

  /** {@return {@link #schemaType()} if there is one} */
  public Optional<String> schemaTypeIfDefined() {
    return schemaType.isEmpty() ? Optional.empty() : Optional.of(schemaType);
  }
}
