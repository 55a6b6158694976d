/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.rbac.clusterrole;

import static io.apiserver4j.apimachinery.validation.GroupRules.maps;
import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.rbac.validation.RbacValidation;
import java.util.List;

/**
 * kube's pkg/registry/rbac/clusterrole strategy: a ClusterRole's policy rules and aggregation
 * rule are validated as kube's {@code ValidateClusterRole}.
 */
public final class ClusterRoleStrategy {
  private ClusterRoleStrategy() {}

  /**
   * The ClusterRole strategy: any path segment is a valid name (kube's
   * {@code ValidateRBACName}); rules may name non-resource URLs; an aggregation rule has at
   * least one valid label selector.
   */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.PATH_SEGMENT)
        .validator((o, old) -> validate(o))
        .build();
  }

  static List<FieldError> validate(MapValue o) {
    List<FieldError> errs = RbacValidation.policyRules(o, false);
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
  private static void labelSelector(List<FieldError> errs, MapValue selector, String at) {
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
}
