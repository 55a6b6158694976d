/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.role;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.registry.rbac.validation.RbacValidation;

/** kube's pkg/registry/rbac/role strategy: a Role's policy rules are validated. */
public final class RoleStrategy {
  private RoleStrategy() {}

  /**
   * The Role strategy: any path segment is a valid name (kube's {@code ValidateRBACName}, so
   * that {@code system:...} names are valid) and each rule is kube's {@code ValidatePolicyRule}
   * for a namespaced role.
   */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .validator((o, old) -> RbacValidation.policyRules(o, true))
        .build();
  }
}
