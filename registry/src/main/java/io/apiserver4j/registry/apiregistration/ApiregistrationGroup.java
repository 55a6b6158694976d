/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apiregistration;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.apiregistration.apiservice.ApiServicePrinter;
import io.apiserver4j.registry.apiregistration.apiservice.ApiServiceStrategy;
import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code apiregistration} API group with their registry behaviour (kube's pkg/registry/apiregistration). */
public final class ApiregistrationGroup {
  private ApiregistrationGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(BuiltinKind.of(
        new GroupVersionKind("apiregistration.k8s.io", "v1", "APIService"),
        ApiServiceStrategy.strategy(), ApiServicePrinter::printer));
  }
}
