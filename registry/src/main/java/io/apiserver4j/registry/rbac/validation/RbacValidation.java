/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.validation;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rules of kube's pkg/apis/rbac/validation/validation.go that several rbac kinds share:
 * policy rule shapes (Roles and ClusterRoles), and role refs (immutable) and subjects
 * (RoleBindings and ClusterRoleBindings). Each method appends kube's field errors, with its
 * paths and messages, in kube's order. Stateless and thread-safe.
 */
public final class RbacValidation {
  private RbacValidation() {}

  /** The API group of the rbac kinds, and of the users and groups their bindings name. */
  public static final String GROUP = "rbac.authorization.k8s.io";

  /**
   * kube's {@code ValidatePolicyRule} of every item of {@code rules}; a namespaced role's rules
   * cannot name non-resource URLs.
   */
  public static List<FieldError> policyRules(MapValue o, boolean namespaced) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> rules = maps(o, "rules");
    for (int i = 0; i < rules.size(); i++) {
      policyRule(errs, rules.get(i), namespaced, "rules[" + i + "]");
    }
    return errs;
  }

  /** kube's {@code ValidatePolicyRule}. */
  private static void policyRule(List<FieldError> errs, MapValue rule, boolean namespaced,
      String at) {
    if (strings(rule, "verbs").isEmpty()) {
      errs.add(FieldError.required(at + ".verbs", "verbs must contain at least one value"));
    }
    List<String> urls = strings(rule, "nonResourceURLs");
    if (!urls.isEmpty()) {
      Value bad = rule.getOrNull("nonResourceURLs");
      if (namespaced) {
        errs.add(FieldError.invalid(at + ".nonResourceURLs", bad,
            "namespaced rules cannot apply to non-resource URLs"));
      }
      if (!strings(rule, "apiGroups").isEmpty() || !strings(rule, "resources").isEmpty()
          || !strings(rule, "resourceNames").isEmpty()) {
        errs.add(FieldError.invalid(at + ".nonResourceURLs", bad,
            "rules cannot apply to both regular resources and non-resource URLs"));
      }
      return;
    }
    if (strings(rule, "apiGroups").isEmpty()) {
      errs.add(FieldError.required(at + ".apiGroups",
          "resource rules must supply at least one api group"));
    }
    if (strings(rule, "resources").isEmpty()) {
      errs.add(FieldError.required(at + ".resources",
          "resource rules must supply at least one resource"));
    }
  }

  /**
   * kube's {@code ValidateRoleBinding} (namespaced) and {@code ValidateClusterRoleBinding}:
   * the role ref names an rbac Role (namespaced bindings only) or ClusterRole and never changes
   * on update ({@code old} present), and each subject is valid.
   */
  public static List<FieldError> validateBinding(MapValue o, Optional<MapValue> old,
      boolean namespaced) {
    List<FieldError> errs = new ArrayList<>();
    String apiGroup = str(o, "roleRef", "apiGroup");
    if (!apiGroup.equals(GROUP)) {
      errs.add(FieldError.notSupported("roleRef.apiGroup", Value.of(apiGroup), List.of(GROUP)));
    }
    String kind = str(o, "roleRef", "kind");
    List<String> kinds = namespaced ? List.of("Role", "ClusterRole") : List.of("ClusterRole");
    if (!kinds.contains(kind)) {
      errs.add(FieldError.notSupported("roleRef.kind", Value.of(kind), kinds));
    }
    String name = str(o, "roleRef", "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required("roleRef.name", ""));
    } else {
      for (String msg : MetaValidation.pathSegment(name, false)) {
        errs.add(FieldError.invalid("roleRef.name", Value.of(name), msg));
      }
    }
    List<MapValue> subjects = maps(o, "subjects");
    for (int i = 0; i < subjects.size(); i++) {
      subject(errs, subjects.get(i), namespaced, "subjects[" + i + "]");
    }
    if (old.isPresent()) {
      MapValue was = Nested.map(old.get(), "roleRef");
      if (!roleRefKey(was).equals(roleRefKey(Nested.map(o, "roleRef")))) {
        // kube prints the internal RoleRef struct, whose fields have no JSON names
        errs.add(FieldError.invalidOmitValue("roleRef", "{\"APIGroup\":"
            + GoStrings.quote(apiGroup) + ",\"Kind\":" + GoStrings.quote(kind) + ",\"Name\":"
            + GoStrings.quote(name) + "}: cannot change roleRef"));
      }
    }
    return errs;
  }

  private static List<String> roleRefKey(MapValue ref) {
    return List.of(str(ref, "apiGroup"), str(ref, "kind"), str(ref, "name"));
  }

  /** kube's {@code ValidateRoleBindingSubject}. */
  private static void subject(List<FieldError> errs, MapValue s, boolean namespaced, String at) {
    String name = str(s, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", ""));
    }
    String apiGroup = str(s, "apiGroup");
    switch (str(s, "kind")) {
      case "ServiceAccount":
        if (!name.isEmpty()) {
          for (String msg : MetaValidation.dns1123Subdomain(name)) {
            errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
          }
        }
        if (!apiGroup.isEmpty()) {
          errs.add(FieldError.notSupported(at + ".apiGroup", Value.of(apiGroup), List.of("")));
        }
        if (!namespaced && str(s, "namespace").isEmpty()) {
          errs.add(FieldError.required(at + ".namespace", ""));
        }
        break;
      case "User":
      case "Group":
        if (!apiGroup.equals(GROUP)) {
          errs.add(FieldError.notSupported(at + ".apiGroup", Value.of(apiGroup), List.of(GROUP)));
        }
        break;
      default:
        errs.add(FieldError.notSupported(at + ".kind", Value.of(str(s, "kind")),
            List.of("ServiceAccount", "User", "Group")));
    }
  }
}
