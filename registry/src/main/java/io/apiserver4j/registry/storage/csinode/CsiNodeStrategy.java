/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.csinode;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.storage.validation.StorageValidation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * kube's pkg/registry/storage/csinode strategy: {@code ValidateCSINode} (driver names, node IDs,
 * allocatable counts, topology keys) and its update form (an existing driver entry may change
 * only its allocatable count).
 */
public final class CsiNodeStrategy {
  private CsiNodeStrategy() {}

  /** The CSINode strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(CsiNodeStrategy::validateCsiNode)
        .build();
  }

  private static List<FieldError> validateCsiNode(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> drivers = maps(o, "spec", "drivers");
    Set<String> names = new HashSet<>();
    for (int i = 0; i < drivers.size(); i++) {
      MapValue d = drivers.get(i);
      String at = "spec.drivers[" + i + "]";
      String name = str(d, "name");
      StorageValidation.csiDriverName(errs, at + ".name", name);
      String nodeId = str(d, "nodeID");
      if (nodeId.isEmpty()) {
        errs.add(FieldError.required(at + ".nodeID", ""));
      }
      if (nodeId.length() > 192) {
        errs.add(FieldError.invalid(at + ".nodeID", Value.of(nodeId),
            "must be 192 characters or less"));
      }
      Optional<Long> count = GroupRules.integer(d, "allocatable", "count");
      if (count.isPresent() && count.get() < 0) {
        errs.add(FieldError.invalid(at + ".allocatable.count", Value.of(count.get()),
            "must be greater than or equal to 0"));
      }
      if (!names.add(name)) {
        errs.add(FieldError.duplicate(at + ".name", Value.of(name)));
      }
      Set<String> keys = new HashSet<>();
      for (String key : strings(d, "topologyKeys")) {
        if (key.isEmpty()) {
          errs.add(FieldError.required(at, ""));
        }
        if (!keys.add(key)) {
          errs.add(FieldError.duplicate(at, Value.of(key)));
        }
        GroupRules.qualifiedName(errs, at, key);
      }
    }
    if (old.isPresent()) {
      // an existing driver entry may change only its allocatable count
      for (MapValue was : maps(old.get(), "spec", "drivers")) {
        for (MapValue now : drivers) {
          if (str(was, "name").equals(str(now, "name"))
              && !was.without("allocatable").equals(now.without("allocatable"))) {
            errs.add(FieldError.invalid("spec.drivers", now.without("allocatable"),
                "field is immutable"));
          }
        }
      }
    }
    return errs;
  }
}
