/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.matching;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;

/**
 * How a request matched: the resource, subresource and kind the webhook or policy is to see.
 * They are the request's own unless it matched through an equivalent resource
 * ({@link MatchPolicy#EQUIVALENT}); then the object must be converted to {@code kind}'s version
 * before it is shown, and the request's own resource goes out as {@code requestResource}.
 *
 * @param resource the matched resource
 * @param subresource the request's subresource
 * @param kind the matched kind
 */
public record Match(GroupVersionResource resource, String subresource, GroupVersionKind kind) {
  /**
   * Checks that no component is null.
   *
   * @param resource see the record component
   * @param subresource see the record component
   * @param kind see the record component
   * @throws NullPointerException when a component is null
   */
  public Match {
    requireNonNull(resource, "resource");
    requireNonNull(subresource, "subresource");
    requireNonNull(kind, "kind");
  }
}
