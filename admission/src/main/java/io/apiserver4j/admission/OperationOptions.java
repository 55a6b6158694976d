/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;

/**
 * Builds the {@link AdmissionAttributes#options()} value kube-apiserver passes to admission:
 * {@code CreateOptions} for CREATE, {@code UpdateOptions} for UPDATE (a PATCH is admitted with
 * the options converted to these), {@code DeleteOptions} for DELETE, in group
 * {@code meta.k8s.io/v1}, with Go's {@code omitempty} (unset fields left out).
 */
public final class OperationOptions {
  private static final Value DRY_RUN_ALL = Value.list(Value.of("All"));

  private OperationOptions() {}

  /**
   * The options of {@code operation}: {@code dryRun: ["All"]} when {@code dryRun}, and
   * {@code fieldManager} when non-empty (ignored for DELETE, which has none). CONNECT has no
   * options kind and yields an empty map.
   *
   * @param operation the operation
   * @param dryRun whether the request is a dry run
   * @param fieldManager the field manager, or empty
   * @return the options object
   */
  public static MapValue of(Operation operation, boolean dryRun, String fieldManager) {
    requireNonNull(operation, "operation");
    requireNonNull(fieldManager, "fieldManager");
    String kind;
    switch (operation) {
      case CREATE: kind = "CreateOptions"; break;
      case UPDATE: kind = "UpdateOptions"; break;
      case DELETE: kind = "DeleteOptions"; break;
      default: return MapValue.empty();
    }
    MapValue.Builder b = MapValue.builder(4)
        .put("kind", Value.of(kind))
        .put("apiVersion", Value.of("meta.k8s.io/v1"));
    if (dryRun) {
      b.put("dryRun", DRY_RUN_ALL);
    }
    if (!fieldManager.isEmpty() && operation != Operation.DELETE) {
      b.put("fieldManager", Value.of(fieldManager));
    }
    return b.build();
  }
}
