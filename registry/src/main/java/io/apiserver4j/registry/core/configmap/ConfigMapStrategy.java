/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.configmap;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.ConfigDataRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * core/v1 ConfigMap (kube's pkg/registry/core/configmap): empty data maps are not kept, and
 * {@code ValidateConfigMap}/{@code ValidateConfigMapUpdate} check keys, size and immutability.
 */
public final class ConfigMapStrategy {
  private ConfigMapStrategy() {}

  /** The ConfigMap strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .omitEmptyFields("data", "binaryData")
        .validator(ConfigMapStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    ConfigDataRules.keys(errs, o, "data");
    MapValue data = Nested.map(o, "data");
    MapValue binary = Nested.map(o, "binaryData");
    for (int i = 0; i < data.size(); i++) {
      if (binary.containsKey(data.keyAt(i))) {
        errs.add(FieldError.invalid("data[" + data.keyAt(i) + "]", Value.of(data.keyAt(i)),
            "duplicate of key present in binaryData"));
      }
    }
    ConfigDataRules.keys(errs, o, "binaryData");
    // an error of the whole object, with kube's empty path
    if (ConfigDataRules.dataBytes(o, "data", false)
        + ConfigDataRules.dataBytes(o, "binaryData", true) > ConfigDataRules.MAX_DATA_BYTES) {
      errs.add(FieldError.tooLong("[]", ConfigDataRules.MAX_DATA_BYTES));
    }
    if (ConfigDataRules.immutableSet(old)) {
      ConfigDataRules.immutableData(errs, o, old.get(), "data", "binaryData");
    }
    return errs;
  }
}
