/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac;

import io.apiserver4j.registry.internal.BuiltinKind;
import java.util.List;

/** The kinds of the {@code rbac} API group with their registry behaviour (kube's pkg/registry/rbac). */
public final class RbacGroup {
  private RbacGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of();
  }
}
