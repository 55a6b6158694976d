/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.serviceaccount;

import io.apiserver4j.apiserver.ResourceStrategy;

/**
 * core/v1 ServiceAccount (kube's pkg/registry/core/serviceaccount): the default strategy, as
 * its own validation is metadata only.
 */
public final class ServiceAccountStrategy {
  private ServiceAccountStrategy() {}

  /** The ServiceAccount strategy: {@link ResourceStrategy#defaults()}. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.defaults();
  }
}
