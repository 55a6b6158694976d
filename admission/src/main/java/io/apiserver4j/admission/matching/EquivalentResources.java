/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.util.List;
import java.util.Optional;

/**
 * Which served resources hold the same objects as another (kube's
 * {@code EquivalentResourceMapper}): the versions of one resource, and the same resource served
 * in another group. Used by {@link MatchPolicy#EQUIVALENT}. Thread-safe.
 */
public interface EquivalentResources {
  /** Knows no equivalents: every resource is only itself. */
  EquivalentResources NONE = new EquivalentResources() {
    @Override
    public List<GroupVersionResource> equivalents(GroupVersionResource r, String subresource) {
      return List.of(r);
    }

    @Override
    public Optional<GroupVersionKind> kindFor(GroupVersionResource r, String subresource) {
      return Optional.empty();
    }
  };

  /**
   * The resources equivalent to {@code resource} (with {@code subresource} served), including
   * itself, in a stable order (kube: preferred first).
   *
   * @param resource the requested resource
   * @param subresource the requested subresource, or empty
   * @return the equivalents, never empty
   */
  List<GroupVersionResource> equivalents(GroupVersionResource resource, String subresource);

  /**
   * The kind of {@code resource}'s {@code subresource} ("" for the main resource).
   *
   * @param resource the resource
   * @param subresource the subresource, or empty
   * @return the kind; empty when it is not served
   */
  Optional<GroupVersionKind> kindFor(GroupVersionResource resource, String subresource);
}
