/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.clusterrolebinding;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.registry.rbac.validation.RbacDefaults;
import io.apiserver4j.registry.rbac.validation.RbacValidation;

/** kube's pkg/registry/rbac/clusterrolebinding strategy. */
public final class ClusterRoleBindingStrategy {
  private ClusterRoleBindingStrategy() {}

  /**
   * The ClusterRoleBinding strategy: any path segment is a valid name (kube's
   * {@code ValidateRBACName}), kube's binding and subject defaults, and kube's
   * {@code ValidateClusterRoleBinding}: the role ref names a ClusterRole, ServiceAccount
   * subjects name their namespace; the role ref never changes.
   */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .defaulter(RbacDefaults::defaultBinding)
        .validator((o, old) -> RbacValidation.validateBinding(o, old, false))
        .build();
  }
}
