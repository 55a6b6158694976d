/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.discovery;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.discovery.endpointslice.EndpointSlicePrinter;
import io.apiserver4j.registry.discovery.endpointslice.EndpointSliceStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code discovery} API group with their registry behaviour (kube's pkg/registry/discovery). */
public final class DiscoveryGroup {
  private DiscoveryGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("discovery.k8s.io", "v1", "EndpointSlice"),
            EndpointSliceStrategy.strategy(), EndpointSlicePrinter::printer));
  }
}
