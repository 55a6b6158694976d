/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.apiserver.ResourceStrategy;

/**
 * The legacy {@code bindings} resource of the core group: kube serves it from the pod storage
 * ({@code pkg/registry/core/pod/storage}'s BindingREST), so a create of a Binding binds the pod
 * it names, as {@code pods/binding} does.
 */
public final class BindingStrategy {
  private BindingStrategy() {}

  /** The Binding strategy: its only verb, create, binds the named pod to a node. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .subresourceCreate("", new PodBinding())
        .build();
  }
}
