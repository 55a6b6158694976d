/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.List;
import java.util.regex.Pattern;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * What the apps/v1 workloads' validation shares, as kube's {@code pkg/apis/apps/validation}:
 * the selector and pod template of a workload ({@code ValidatePodTemplateSpecForReplicaSet}
 * and its selector checks) and the int-or-percent fields of update strategies. Errors are
 * appended in kube's order. Stateless and thread-safe.
 */
public final class WorkloadValidation {
  private static final Pattern PERCENT = Pattern.compile("[0-9]+%");

  private WorkloadValidation() {}

  /**
   * The required {@code spec.selector} (valid, not empty: "empty selector is invalid for
   * {@code selectorWording}") and {@code spec.template}, whose labels it must match, whose
   * pod spec must be valid with restart policy {@code Always} and no active deadline (which
   * "is not Supported" in a {@code workload}).
   */
  public static void selectorAndTemplate(MapValue spec, String selectorWording, String workload,
      List<FieldError> errs) {
    selectorAndTemplate(spec, selectorWording, workload, PodValidationOptions.RELAXED, errs);
  }

  /** {@link #selectorAndTemplate} with the pod validation options of the server's gates. */
  public static void selectorAndTemplate(MapValue spec, String selectorWording, String workload,
      PodValidationOptions options, List<FieldError> errs) {
    MapValue selector = Nested.mapOrNull(spec, "selector");
    if (selector == null) {
      errs.add(FieldError.required("spec.selector", ""));
    } else {
      KubeValidation.labelSelector(selector, "spec.selector", errs);
      if (KubeValidation.isEmptySelector(selector)) {
        errs.add(FieldError.invalid("spec.selector", selector,
            "empty selector is invalid for " + selectorWording));
      }
    }
    boolean check = selector != null && !KubeValidation.isEmptySelector(selector);
    if (selector != null && !KubeValidation.convertibleSelector(selector)) {
      // LabelSelectorAsSelector failed: the template is validated but not matched
      errs.add(FieldError.invalid("spec.selector", selector, "invalid label selector"));
      check = false;
    }
    boolean matches = check
        && KubeValidation.selectorMatches(selector, PodSpecValidation.templateLabels(spec));
    PodSpecValidation.controllerTemplate(spec, matches, check, workload, options, errs);
  }

  /** apps' {@code ValidatePositiveIntOrPercent}: a non-negative integer or a percent string. */
  public static void positiveIntOrPercent(Value v, String path, List<FieldError> errs) {
    if (v instanceof StringValue s) {
      if (!PERCENT.matcher(s.value()).matches()) {
        errs.add(FieldError.invalid(path, s, MetaValidation.regexError("a valid percent string"
            + " must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%")));
      }
    } else {
      KubeValidation.nonNegative(v, path, errs);
    }
  }

  /**
   * kube's {@code getIntOrPercentValue}: the number of an integer or of a valid percent string
   * (saturated when it overflows); 0 for anything else.
   */
  public static long intOrPercentValue(Value v) {
    if (v instanceof IntegerValue i) {
      return i.value();
    }
    if (v instanceof StringValue s && PERCENT.matcher(s.value()).matches()) {
      try {
        return Long.parseLong(s.value().substring(0, s.value().length() - 1));
      } catch (NumberFormatException e) {
        return Long.MAX_VALUE;
      }
    }
    return 0;
  }

  /** apps' {@code IsNotMoreThan100Percent}: a percent string at most 100%. */
  public static void notMoreThan100Percent(Value v, String path, List<FieldError> errs) {
    if (v instanceof StringValue s && PERCENT.matcher(s.value()).matches()
        && intOrPercentValue(v) > 100) {
      errs.add(FieldError.invalid(path, s, "must not be greater than 100%"));
    }
  }
}
