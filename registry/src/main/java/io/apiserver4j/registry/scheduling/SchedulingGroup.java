/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.scheduling;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.scheduling.priorityclass.PriorityClassPrinter;
import io.apiserver4j.registry.scheduling.priorityclass.PriorityClassStrategy;
import java.util.List;

/** The kinds of the {@code scheduling} API group with their registry behaviour (kube's pkg/registry/scheduling). */
public final class SchedulingGroup {
  private SchedulingGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("scheduling.k8s.io", "v1", "PriorityClass"),
            PriorityClassStrategy.strategy(), PriorityClassPrinter::printer));
  }
}
