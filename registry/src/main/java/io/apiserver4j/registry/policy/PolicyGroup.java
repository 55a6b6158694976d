/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.policy;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.policy.poddisruptionbudget.PodDisruptionBudgetPrinter;
import io.apiserver4j.registry.policy.poddisruptionbudget.PodDisruptionBudgetStrategy;
import java.util.List;

/** The kinds of the {@code policy} API group with their registry behaviour (kube's pkg/registry/policy). */
public final class PolicyGroup {
  private PolicyGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("policy", "v1", "PodDisruptionBudget"),
            PodDisruptionBudgetStrategy.strategy(), PodDisruptionBudgetPrinter::printer));
  }
}
