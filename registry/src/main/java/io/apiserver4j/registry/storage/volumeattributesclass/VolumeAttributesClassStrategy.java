/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.volumeattributesclass;

import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.registry.storage.validation.StorageValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's pkg/registry/storage/volumeattributesclass strategy:
 * {@code ValidateVolumeAttributesClass} (driver name, at least one parameter) and its update
 * form (driver name and parameters never change).
 */
public final class VolumeAttributesClassStrategy {
  private VolumeAttributesClassStrategy() {}

  /** The VolumeAttributesClass strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(VolumeAttributesClassStrategy::validateVolumeAttributesClass)
        .build();
  }

  private static List<FieldError> validateVolumeAttributesClass(MapValue o,
      Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    if (old.isPresent()) {
      if (!str(o, "driverName").equals(str(old.get(), "driverName"))) {
        errs.add(FieldError.forbidden("driverName", "updates to driverName are forbidden."));
      }
      if (!Nested.map(o, "parameters").equals(Nested.map(old.get(), "parameters"))) {
        errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
      }
    }
    StorageValidation.provisioner(errs, "driverName", str(o, "driverName"));
    StorageValidation.parameters(errs, Nested.map(o, "parameters"), false);
    return errs;
  }
}
