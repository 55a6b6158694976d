/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.coordination;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.coordination.lease.LeasePrinter;
import io.apiserver4j.registry.coordination.lease.LeaseStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code coordination} API group with their registry behaviour (kube's pkg/registry/coordination). */
public final class CoordinationGroup {
  private CoordinationGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("coordination.k8s.io", "v1", "Lease"),
            LeaseStrategy.strategy(), LeasePrinter::printer));
  }
}
