/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.registry.internal.BuiltinKind;
import io.apiserver4j.registry.rbac.clusterrole.ClusterRoleStrategy;
import io.apiserver4j.registry.rbac.clusterrolebinding.ClusterRoleBindingPrinter;
import io.apiserver4j.registry.rbac.clusterrolebinding.ClusterRoleBindingStrategy;
import io.apiserver4j.registry.rbac.role.RoleStrategy;
import io.apiserver4j.registry.rbac.rolebinding.RoleBindingPrinter;
import io.apiserver4j.registry.rbac.rolebinding.RoleBindingStrategy;
import java.util.List;

/** The kinds of the {@code rbac} API group with their registry behaviour (kube's pkg/registry/rbac). */
public final class RbacGroup {
  private RbacGroup() {}

  /** The kinds of the group this registry declares, each from its own package. */
  public static List<BuiltinKind> kinds() {
    return List.of(
        BuiltinKind.of(rbac("Role"), RoleStrategy.strategy()),
        BuiltinKind.of(rbac("ClusterRole"), ClusterRoleStrategy.strategy()),
        BuiltinKind.of(rbac("RoleBinding"), RoleBindingStrategy.strategy(),
            RoleBindingPrinter::printer),
        BuiltinKind.of(rbac("ClusterRoleBinding"), ClusterRoleBindingStrategy.strategy(),
            ClusterRoleBindingPrinter::printer));
  }

  private static GroupVersionKind rbac(String kind) {
    return new GroupVersionKind("rbac.authorization.k8s.io", "v1", kind);
  }
}
