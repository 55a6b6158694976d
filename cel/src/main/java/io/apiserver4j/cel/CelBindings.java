/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.cel;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.cel.internal.KubeEnvironment;
import io.apiserver4j.core.Value;
import java.util.Map;

/**
 * Variable values prepared once for several evaluations (the expressions of one admission policy
 * on one request): plain values, maps whose entries are computed when read (kube's lazy
 * {@code variables}) and kube's authorizer library bound to {@code authorizer}. Not thread-safe
 * when lazy maps are: use from the evaluating thread.
 */
public final class CelBindings {
  private final KubeEnvironment.Prepared prepared;

  private CelBindings(KubeEnvironment.Prepared prepared) {
    this.prepared = prepared;
  }

  /**
   * Prepares bindings for {@link CelProgram#evaluate(CelBindings)}.
   *
   * @param values variable values
   * @param lazyMaps variables whose entries are computed when read
   * @param authorizer what {@code authorizer} and {@code authorizer.requestResource} ask
   * @return immutable bindings, reusable across evaluations on one thread
   */
  public static CelBindings of(Map<String, Value> values, Map<String, CelLazyMap> lazyMaps,
      CelAuthorizer.ForRequest authorizer) {
    return new CelBindings(KubeEnvironment.prepare(requireNonNull(values, "values"),
        requireNonNull(lazyMaps, "lazyMaps"), requireNonNull(authorizer, "authorizer")));
  }

  KubeEnvironment.Prepared prepared() {
    return prepared;
  }
}
