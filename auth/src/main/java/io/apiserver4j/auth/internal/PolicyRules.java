/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.internal;

import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.List;

/** kube's RBAC rule evaluation ({@code rbac/v1} evaluation helpers) on stored PolicyRules. */
public final class PolicyRules {
  private PolicyRules() {}

  /** Whether {@code rule} (a PolicyRule object) allows the request. */
  public static boolean allows(Value rule, AuthorizationAttributes a) {
    if (!matches(rule, "verbs", a.verb())) {
      return false;
    }
    if (!a.resourceRequest()) {
      return nonResourceUrlMatches(rule, a.path());
    }
    String combined = a.subresource().isEmpty() ? a.resource()
        : a.resource() + "/" + a.subresource();
    return matches(rule, "apiGroups", a.apiGroup())
        && resourceMatches(rule, combined, a.subresource())
        && resourceNameMatches(rule, a.name());
  }

  private static boolean matches(Value rule, String field, String requested) {
    for (Value v : Nested.list(rule, field)) {
      String s = text(v);
      if (s.equals("*") || s.equals(requested)) {
        return true;
      }
    }
    return false;
  }

  private static boolean resourceMatches(Value rule, String combined, String subresource) {
    for (Value v : Nested.list(rule, "resources")) {
      String r = text(v);
      if (r.equals("*") || r.equals(combined)) {
        return true;
      }
      // "*/status" grants a subresource of every resource
      if (!subresource.isEmpty() && r.length() == subresource.length() + 2
          && r.startsWith("*/") && r.endsWith(subresource)) {
        return true;
      }
    }
    return false;
  }

  private static boolean resourceNameMatches(Value rule, String name) {
    List<Value> names = Nested.list(rule, "resourceNames");
    if (names.isEmpty()) {
      return true;
    }
    for (Value v : names) {
      if (text(v).equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static boolean nonResourceUrlMatches(Value rule, String path) {
    for (Value v : Nested.list(rule, "nonResourceURLs")) {
      String url = text(v);
      if (url.equals("*") || url.equals(path)
          || (url.endsWith("*") && path.startsWith(url.substring(0, url.length() - 1)))) {
        return true;
      }
    }
    return false;
  }

  private static String text(Value v) {
    return v instanceof StringValue s ? s.value() : "";
  }
}
