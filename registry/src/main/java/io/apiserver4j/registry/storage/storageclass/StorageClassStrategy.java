/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.storageclass;

import static io.apiserver4j.apimachinery.validation.GroupRules.immutable;
import static io.apiserver4j.apimachinery.validation.GroupRules.present;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.storage.validation.StorageValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * kube's pkg/registry/storage/storageclass strategy, with the defaults of
 * pkg/apis/storage/v1/defaults.go and kube's {@code ValidateStorageClass} (and its update form:
 * parameters, provisioner, reclaim policy and binding mode never change).
 */
public final class StorageClassStrategy {
  private StorageClassStrategy() {}

  /** The StorageClass strategy: reclaim policy Delete and binding mode Immediate by default. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.setDefault(Nested.setDefault(o, Value.of("Delete"),
            "reclaimPolicy"), Value.of("Immediate"), "volumeBindingMode"))
        .validator(StorageClassStrategy::validateStorageClass)
        .build();
  }

  private static List<FieldError> validateStorageClass(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    StorageValidation.provisioner(errs, "provisioner", str(o, "provisioner"));
    StorageValidation.parameters(errs, Nested.map(o, "parameters"), true);
    String policy = str(o, "reclaimPolicy");
    if (!policy.isEmpty() && !List.of("Delete", "Retain").contains(policy)) {
      errs.add(FieldError.notSupported("reclaimPolicy", Value.of(policy),
          List.of("Delete", "Retain")));
    }
    if (!present(o, "volumeBindingMode")) {
      errs.add(FieldError.required("volumeBindingMode", ""));
    } else if (!List.of("Immediate", "WaitForFirstConsumer")
        .contains(str(o, "volumeBindingMode"))) {
      errs.add(FieldError.notSupported("volumeBindingMode",
          Value.of(str(o, "volumeBindingMode")), List.of("Immediate", "WaitForFirstConsumer")));
    }
    if (old.isPresent()) {
      MapValue was = old.get();
      if (!Nested.map(o, "parameters").equals(Nested.map(was, "parameters"))) {
        errs.add(FieldError.forbidden("parameters", "updates to parameters are forbidden."));
      }
      if (!str(o, "provisioner").equals(str(was, "provisioner"))) {
        errs.add(FieldError.forbidden("provisioner", "updates to provisioner are forbidden."));
      }
      if (!policy.equals(str(was, "reclaimPolicy"))) {
        errs.add(FieldError.forbidden("reclaimPolicy", "updates to reclaimPolicy are forbidden."));
      }
      immutable(errs, "volumeBindingMode", o.getOrNull("volumeBindingMode"),
          was.getOrNull("volumeBindingMode"));
    }
    return errs;
  }
}
