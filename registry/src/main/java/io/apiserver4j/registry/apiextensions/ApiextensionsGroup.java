/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apiextensions;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.apiextensions.customresourcedefinition.CustomResourceDefinitionStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code apiextensions} API group with their registry behaviour (kube's pkg/registry/apiextensions). */
public final class ApiextensionsGroup {
  private ApiextensionsGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(BuiltinKind.of(
        new GroupVersionKind("apiextensions.k8s.io", "v1", "CustomResourceDefinition"),
        CustomResourceDefinitionStrategy.strategy()));
  }
}
