/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.resource;

import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code resource} API group with their registry behaviour (kube's pkg/registry/resource). */
public final class ResourceGroup {
  private ResourceGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of();
  }
}
