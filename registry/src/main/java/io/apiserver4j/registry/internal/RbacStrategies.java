/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.GroupRules;

/**
 * rbac.authorization.k8s.io/v1: kube's {@code SetDefaults_Subject} and
 * {@code SetDefaults_(Cluster)RoleBinding} (pkg/apis/rbac/v1/defaults.go) and the rules of
 * pkg/apis/rbac/validation/validation.go: policy rule shapes, aggregation rules, role refs
 * (immutable) and subjects.
 */
final class RbacStrategies {
  private RbacStrategies() {}

  static final String GROUP = "rbac.authorization.k8s.io";

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    // kube's ValidateRBACName: any path segment, so that "system:..." names are valid
    out.put(rbac("Role"), base().validator((o, old) -> rules(o, true)).build());
    out.put(rbac("ClusterRole"), base().validator((o, old) -> validateClusterRole(o)).build());
    out.put(rbac("RoleBinding"), base()
        .defaulter(RbacStrategies::defaultBinding)
        .validator((o, old) -> validateBinding(o, old, true))
        .build());
    out.put(rbac("ClusterRoleBinding"), base()
        .defaulter(RbacStrategies::defaultBinding)
        .validator((o, old) -> validateBinding(o, old, false))
        .build());
    return out;
  }

  private static ResourceStrategy.Builder base() {
    return ResourceStrategy.builder().nameValidation(NameValidation.PATH_SEGMENT);
  }

  private static GroupVersionKind rbac(String kind) {
    return new GroupVersionKind(GROUP, "v1", kind);
  }

  static MapValue defaultBinding(MapValue o) {
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
      return kind.equals("User") || kind.equals("Group") ? s.with("apiGroup", Value.of(GROUP))
          : kind.equals("ServiceAccount") ? s.with("apiGroup", Value.of("")) : s;
    }, "subjects");
  }

  private static List<FieldError> rules(MapValue o, boolean namespaced) {
    List<FieldError> errs = new ArrayList<>();
    List<MapValue> rules = maps(o, "rules");
    for (int i = 0; i < rules.size(); i++) {
      policyRule(errs, rules.get(i), namespaced, "rules[" + i + "]");
    }
    return errs;
  }

  /** kube's {@code ValidatePolicyRule}. */
  static void policyRule(List<FieldError> errs, MapValue rule, boolean namespaced, String at) {
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

  private static final List<String> SELECTOR_OPERATORS =
      List.of("In", "NotIn", "Exists", "DoesNotExist");

  static List<FieldError> validateClusterRole(MapValue o) {
    List<FieldError> errs = rules(o, false);
    if (Nested.getOrNull(o, "aggregationRule") instanceof MapValue agg) {
      List<MapValue> selectors = maps(agg, "clusterRoleSelectors");
      if (selectors.isEmpty()) {
        errs.add(FieldError.required("aggregationRule.clusterRoleSelectors",
            "at least one clusterRoleSelector required if aggregationRule is non-nil"));
      }
      for (int i = 0; i < selectors.size(); i++) {
        labelSelector(errs, selectors.get(i), "aggregationRule.clusterRoleSelectors[" + i + "]");
      }
    }
    return errs;
  }

  /** apimachinery's {@code ValidateLabelSelector}: label keys, values and operators. */
  static void labelSelector(List<FieldError> errs, MapValue selector, String at) {
    MapValue labels = Nested.map(selector, "matchLabels");
    errs.addAll(MetaValidation.labels(labels, at + ".matchLabels"));
    List<MapValue> exprs = maps(selector, "matchExpressions");
    for (int i = 0; i < exprs.size(); i++) {
      MapValue e = exprs.get(i);
      String ep = at + ".matchExpressions[" + i + "]";
      String op = str(e, "operator");
      int values = strings(e, "values").size();
      switch (op) {
        case "In":
        case "NotIn":
          if (values == 0) {
            errs.add(FieldError.required(ep + ".values",
                "must be specified when `operator` is 'In' or 'NotIn'"));
          }
          break;
        case "Exists":
        case "DoesNotExist":
          if (values > 0) {
            errs.add(FieldError.forbidden(ep + ".values",
                "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
          }
          break;
        default:
          errs.add(FieldError.invalid(ep + ".operator", Value.of(op),
              "not a valid selector operator"));
      }
      GroupRules.qualifiedName(errs, ep + ".key", str(e, "key"));
    }
  }

  static List<FieldError> validateBinding(MapValue o, Optional<MapValue> old, boolean namespaced) {
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
  static void subject(List<FieldError> errs, MapValue s, boolean namespaced, String at) {
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
