/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.core.pod.BindingStrategy;
import io.apiserver4j.registry.core.pod.PodPrinter;
import io.apiserver4j.registry.core.pod.PodStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.ArrayList;
import java.util.List;

/** The kinds of the {@code core} API group with their registry behaviour (kube's pkg/registry/core). */
public final class CoreGroup {
  private CoreGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    List<BuiltinKind> kinds = new ArrayList<>();
    // --- pods (core.pod): Pod, and the legacy Binding kube serves from the pod storage ---
    kinds.add(BuiltinKind.of(v1("Pod"), PodStrategy.strategy(), PodPrinter.printer()));
    kinds.add(BuiltinKind.of(v1("Binding"), BindingStrategy.strategy()));
    // --- end of pods ---
    return List.copyOf(kinds);
  }

  private static GroupVersionKind v1(String kind) {
    return new GroupVersionKind("", "v1", kind);
  }
}
