/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apiregistration.apiservice;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-aggregator's APIService strategy (pkg/registry/apiservice) with its
 * {@code ValidateAPIService}: the name is a path segment equal to {@code version.group}
 * ({@code v1.} for the core group), and the group and version priorities are in range.
 */
public final class ApiServiceStrategy {
  private ApiServiceStrategy() {}

  /** The APIService strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .validator((o, old) -> validateApiService(o))
        .build();
  }

  private static List<FieldError> validateApiService(MapValue apiService) {
    List<FieldError> errs = new ArrayList<>();
    String version = Nested.str(apiService, "spec", "version");
    String required = version + "." + Nested.str(apiService, "spec", "group");
    String name = Meta.metaString(apiService, "name");
    if (!name.isEmpty() && !name.equals(required)) {
      errs.add(FieldError.invalid("metadata.name", Value.of(name),
          "must be `spec.version+\".\"+spec.group`: \"" + required + "\""));
    }
    long groupPriority = Nested.integer(apiService, "spec", "groupPriorityMinimum");
    if (groupPriority <= 0 || groupPriority > 20000) {
      errs.add(FieldError.invalid("spec.groupPriorityMinimum", Value.of(groupPriority),
          "must be positive and less than 20000"));
    }
    long versionPriority = Nested.integer(apiService, "spec", "versionPriority");
    if (versionPriority <= 0 || versionPriority > 1000) {
      errs.add(FieldError.invalid("spec.versionPriority", Value.of(versionPriority),
          "must be positive and less than 1000"));
    }
    if (version.isEmpty()) {
      errs.add(FieldError.required("spec.version", ""));
    }
    return errs;
  }
}
