/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource.validation;

import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;

/**
 * kube's pkg/apis/resource/v1/defaults.go for the claim specs of ResourceClaims and
 * ResourceClaimTemplates. Stateless and thread-safe.
 */
public final class ClaimSpecDefaults {
  private ClaimSpecDefaults() {}

  /** kube's {@code SetDefaults_ExactDeviceRequest} and {@code SetDefaults_DeviceSubRequest}. */
  public static MapValue defaultClaimSpec(MapValue spec) {
    return Nested.updateListItems(spec, request -> {
      MapValue r = Nested.updateMap(request, ClaimSpecDefaults::defaultAllocation, "exactly");
      return Nested.updateListItems(r, ClaimSpecDefaults::defaultAllocation, "firstAvailable");
    }, "devices", "requests");
  }

  private static MapValue defaultAllocation(MapValue request) {
    MapValue r = Nested.setDefault(request, Value.of("ExactCount"), "allocationMode");
    if (str(r, "allocationMode").equals("ExactCount")
        && GroupRules.integer(r, "count").orElse(0L) == 0) {
      r = r.with("count", Value.of(1L));
    }
    return r;
  }
}
