/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.rolebinding;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.registry.rbac.validation.RbacDefaults;
import io.apiserver4j.registry.rbac.validation.RbacValidation;

/** kube's pkg/registry/rbac/rolebinding strategy. */
public final class RoleBindingStrategy {
  private RoleBindingStrategy() {}

  /**
   * The RoleBinding strategy: any path segment is a valid name (kube's
   * {@code ValidateRBACName}), kube's binding and subject defaults, and kube's
   * {@code ValidateRoleBinding}: the role ref names a Role or a ClusterRole and never changes.
   */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .defaulter(RbacDefaults::defaultBinding)
        .validator((o, old) -> RbacValidation.validateBinding(o, old, true))
        .build();
  }
}
