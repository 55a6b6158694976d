/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.deviceclass;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * kube's pkg/registry/resource/deviceclass strategy: the generation follows the spec, and
 * kube's {@code ValidateDeviceClass}.
 */
public final class DeviceClassStrategy {
  private DeviceClassStrategy() {}

  /** The DeviceClass strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .validator(DeviceClassValidation::validateDeviceClass)
        .build();
  }
}
