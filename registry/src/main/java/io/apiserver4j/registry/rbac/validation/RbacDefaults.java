/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.validation;

import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.registry.rbac.validation.RbacValidation.GROUP;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;

/**
 * kube's pkg/apis/rbac/v1/defaults.go for the kinds that share it. Stateless and thread-safe.
 */
public final class RbacDefaults {
  private RbacDefaults() {}

  /**
   * kube's {@code SetDefaults_RoleBinding} / {@code SetDefaults_ClusterRoleBinding} and
   * {@code SetDefaults_Subject}: the role ref's API group is rbac's, and a subject without an
   * API group gets rbac's (users, groups) or the core group's (service accounts), which as an
   * empty {@code omitempty} string is not written at all.
   */
  public static MapValue defaultBinding(MapValue o) {
    MapValue r = o;
    if (Nested.getOrNull(r, "roleRef") instanceof MapValue) {
      r = Nested.setDefault(r, Value.of(GROUP), "roleRef", "apiGroup");
      if (str(r, "roleRef", "apiGroup").isEmpty()) {
        r = Nested.set(r, Value.of(GROUP), "roleRef", "apiGroup");
      }
    }
    return Nested.updateListItems(r, s -> {
      if (!str(s, "apiGroup").isEmpty()) {
        return s;
      }
      String kind = str(s, "kind");
      if (kind.equals("User") || kind.equals("Group")) {
        return s.with("apiGroup", Value.of(GROUP));
      }
      // a service account's group is the core group, "": Subject.apiGroup is omitempty, so
      // kube never writes it (and drops an explicit "" when it encodes the object)
      return s.containsKey("apiGroup") ? s.without("apiGroup") : s;
    }, "subjects");
  }
}
