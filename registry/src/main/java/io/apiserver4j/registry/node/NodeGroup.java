/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.node;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.node.runtimeclass.RuntimeClassPrinter;
import io.apiserver4j.registry.node.runtimeclass.RuntimeClassStrategy;
import java.util.List;

/** The kinds of the {@code node} API group with their registry behaviour (kube's pkg/registry/node). */
public final class NodeGroup {
  private NodeGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(new GroupVersionKind("node.k8s.io", "v1", "RuntimeClass"),
            RuntimeClassStrategy.strategy(), RuntimeClassPrinter::printer));
  }
}
