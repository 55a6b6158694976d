/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.componentstatus;

import io.apiserver4j.apiserver.ResourceStrategy;

/**
 * core/v1 ComponentStatus (kube's pkg/registry/core/componentstatus): the default strategy;
 * the resource is read-only, as its discovery verbs say.
 */
public final class ComponentStatusStrategy {
  private ComponentStatusStrategy() {}

  /** The ComponentStatus strategy: {@link ResourceStrategy#defaults()}. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.defaults();
  }
}
