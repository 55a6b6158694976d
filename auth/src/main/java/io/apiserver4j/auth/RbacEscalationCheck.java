/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.auth.internal.Covers;
import io.apiserver4j.authz.AuthorizationAttributes;
import io.apiserver4j.authz.AuthorizationDecision;
import io.apiserver4j.core.GroupResource;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.Set;

/**
 * kube's RBAC escalation prevention on role and binding writes: a user may write a role only
 * with rules they hold themselves (or with the {@code escalate} verb on it), and bind a role only
 * if they hold its rules (or the {@code bind} verb on it); {@code system:masters} may do both.
 * Denials are kube's 403 naming the rights not held.
 */
public final class RbacEscalationCheck implements ValidatingPlugin {
  private static final String GROUP = "rbac.authorization.k8s.io";
  private static final Set<String> KINDS = Set.of("roles", "clusterroles", "rolebindings",
      "clusterrolebindings");

  private final RbacAuthorizer rbac;

  public RbacEscalationCheck(RbacAuthorizer rbac) {
    this.rbac = rbac;
  }

  @Override
  public String name() {
    return "RBACEscalation";
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return (a.operation() == Operation.CREATE || a.operation() == Operation.UPDATE)
        && a.resource().group().equals(GROUP) && KINDS.contains(a.resource().resource())
        && a.subresource().isEmpty();
  }

  @Override
  public void validate(AdmissionAttributes a) {
    UserInfo user = a.userInfo();
    if (user.groups().contains("system:masters")) {
      return;
    }
    MapValue object = a.object().orElseThrow();
    String plural = a.resource().resource();
    boolean binding = plural.endsWith("bindings");
    String name = Meta.metaString(object, "name");
    List<Value> granted;
    if (binding) {
      String roleKind = Nested.str(object, "roleRef", "kind");
      String roleName = Nested.str(object, "roleRef", "name");
      String rolePlural = roleKind.equals("ClusterRole") ? "clusterroles" : "roles";
      // kube's BindingAuthorized asks in the binding's namespace (empty for a
      // ClusterRoleBinding), so a ClusterRole may be delegated for binding in one namespace
      if (allowed(user, "bind", rolePlural, a.namespace(), roleName)) {
        return;
      }
      granted = rbac.roleRules(roleKind, a.namespace(), roleName);
    } else {
      if (allowed(user, "escalate", plural, a.namespace(), name)) {
        return;
      }
      granted = Nested.list(object, "rules");
    }
    RbacAuthorizer.RulesResult held = rbac.rulesFor(user, a.namespace());
    List<String> missing = Covers.missing(held.rules(), granted);
    if (missing.isEmpty()) {
      return;
    }
    String message = "user " + io.apiserver4j.core.GoStrings.quote(user.name()) + " (groups="
        + Covers.quoted(user.groups()) + ") is attempting to grant RBAC permissions not"
        + " currently held:\n" + String.join("\n", missing);
    if (!held.errors().isEmpty()) {
      message += "; resolution errors: [" + String.join(" ", held.errors()) + "]";
    }
    throw StatusErrors.forbidden(new GroupResource(GROUP, plural), name, message);
  }

  private boolean allowed(UserInfo user, String verb, String plural, String namespace,
      String name) {
    return rbac.authorize(new AuthorizationAttributes(user, verb, true, GROUP, "*", plural, "",
        namespace, name, "")) instanceof AuthorizationDecision.Allow;
  }
}
