/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * What a Job and a CronJob's job template share, as kube's {@code validateJobSpec} of
 * {@code pkg/apis/batch/validation}: ranges, completion modes, the per-index backoff fields
 * ({@code backoffLimitPerIndex}, {@code maxFailedIndexes}, a {@code FailIndex} rule's need of
 * them), pod replacement policy and the pod template with its restart policy. Errors are appended in kube's order. Stateless and
 * thread-safe.
 */
public final class JobSpecValidation {
  private static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
  /** kube's {@code maxFailedIndexesForIndexedJob}. */
  private static final int MAX_FAILED_INDEXES = 100_000;
  /** kube's {@code completionsSoftLimit}. */
  private static final int COMPLETIONS_SOFT_LIMIT = 100_000;
  /** kube's {@code parallelismLimitForHighCompletions}. */
  private static final int PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS = 10_000;
  /** kube's {@code maxFailedIndexesLimitForHighCompletions}. */
  private static final int MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS = 10_000;

  private JobSpecValidation() {}

  /** Validates the JobSpec {@code spec} (never null) reported under {@code path}. */
  public static void jobSpec(MapValue spec, String path, List<FieldError> errs) {
    jobSpec(spec, path, PodValidationOptions.RELAXED, errs);
  }

  /** {@link #jobSpec} with the pod validation options of the server's gates. */
  public static void jobSpec(MapValue spec, String path, PodValidationOptions options,
      List<FieldError> errs) {
    for (String f : List.of("parallelism", "completions", "activeDeadlineSeconds",
        "backoffLimit", "ttlSecondsAfterFinished")) {
      KubeValidation.nonNegative(spec.getOrNull(f), path + "." + f, errs);
    }
    KubeValidation.nonNegative(spec.getOrNull("backoffLimitPerIndex"),
        path + ".backoffLimitPerIndex", errs);
    if (!absent(spec, "maxFailedIndexes")) {
      KubeValidation.nonNegative(spec.getOrNull("maxFailedIndexes"), path + ".maxFailedIndexes",
          errs);
      if (absent(spec, "backoffLimitPerIndex")) {
        errs.add(FieldError.required(path + ".backoffLimitPerIndex",
            "when maxFailedIndexes is specified"));
      }
    }
    Value mode = spec.getOrNull("completionMode");
    if (mode != null && !mode.isNull()) {
      String m = str(spec, "completionMode");
      if (!m.equals("NonIndexed") && !m.equals("Indexed")) {
        errs.add(FieldError.notSupported(path + ".completionMode", mode,
            List.of("NonIndexed", "Indexed")));
      }
      if (m.equals("Indexed")) {
        if (absent(spec, "completions")) {
          errs.add(FieldError.required(path + ".completions",
              "when completion mode is Indexed"));
        }
        if (spec.getOrNull("parallelism") instanceof IntegerValue p
            && p.value() > MAX_PARALLELISM_FOR_INDEXED_JOB) {
          errs.add(FieldError.invalid(path + ".parallelism", p, "must be less than or equal to "
              + MAX_PARALLELISM_FOR_INDEXED_JOB + " when completion mode is Indexed"));
        }
        perIndexLimits(spec, path, errs);
      }
    }
    if (absent(spec, "completionMode") || str(spec, "completionMode").equals("NonIndexed")) {
      for (String f : List.of("backoffLimitPerIndex", "maxFailedIndexes")) {
        if (!absent(spec, f)) {
          errs.add(FieldError.invalid(path + "." + f, spec.getOrNull(f),
              "requires indexed completion mode"));
        }
      }
    }
    List<Value> rules = Nested.list(spec, "podFailurePolicy", "rules");
    for (int i = 0; i < rules.size(); i++) {
      // kube's validatePodFailurePolicyRule, its action's FailIndex part
      Value action = Nested.getOrNull(rules.get(i), "action");
      if (action != null && str((MapValue) rules.get(i), "action").equals("FailIndex")
          && absent(spec, "backoffLimitPerIndex")) {
        errs.add(FieldError.invalid(path + ".podFailurePolicy.rules[" + i + "].action", action,
            "requires the backoffLimitPerIndex to be set"));
      }
    }
    KubeValidation.optionalEnum(spec, "podReplacementPolicy", path + ".podReplacementPolicy",
        List.of("Failed", "TerminatingOrFailed"), errs);
    MapValue template = Nested.mapOrNull(spec, "template");
    PodSpecValidation.templateMetadata(template, path + ".template", errs);
    PodSpecValidation.validatePodSpec(Nested.mapOrNull(spec, "template", "spec"),
        path + ".template.spec", PodSpecValidation.SpecOf.TEMPLATE, options, errs);
    String rp = str(spec, "template", "spec", "restartPolicy");
    if (!rp.equals("OnFailure") && !rp.equals("Never")) {
      errs.add(FieldError.notSupported(path + ".template.spec.restartPolicy", Value.of(rp),
          List.of("OnFailure", "Never")));
    }
  }

  /** kube's {@code validateJobSpec} limits of an Indexed Job's per-index backoff fields. */
  private static void perIndexLimits(MapValue spec, String path, List<FieldError> errs) {
    Value completions = spec.getOrNull("completions");
    Value maxFailed = spec.getOrNull("maxFailedIndexes");
    if (completions instanceof IntegerValue c && maxFailed instanceof IntegerValue m
        && m.value() > c.value()) {
      errs.add(FieldError.invalid(path + ".maxFailedIndexes", m,
          "must be less than or equal to completions"));
    }
    if (maxFailed instanceof IntegerValue m && m.value() > MAX_FAILED_INDEXES) {
      errs.add(FieldError.invalid(path + ".maxFailedIndexes", m,
          "must be less than or equal to " + MAX_FAILED_INDEXES));
    }
    if (completions instanceof IntegerValue c && c.value() > COMPLETIONS_SOFT_LIMIT
        && !absent(spec, "backoffLimitPerIndex")) {
      if (absent(spec, "maxFailedIndexes")) {
        errs.add(FieldError.required(path + ".maxFailedIndexes",
            "must be specified when completions is above " + COMPLETIONS_SOFT_LIMIT));
      }
      if (spec.getOrNull("parallelism") instanceof IntegerValue p
          && p.value() > PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS) {
        errs.add(FieldError.invalid(path + ".parallelism", p, "must be less than or equal to "
            + PARALLELISM_LIMIT_FOR_HIGH_COMPLETIONS + " when completions are above "
            + COMPLETIONS_SOFT_LIMIT + " and used with backoff limit per index"));
      }
      if (maxFailed instanceof IntegerValue m
          && m.value() > MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS) {
        errs.add(FieldError.invalid(path + ".maxFailedIndexes", m,
            "must be less than or equal to " + MAX_FAILED_INDEXES_FOR_HIGH_COMPLETIONS
                + " when completions are above " + COMPLETIONS_SOFT_LIMIT
                + " and used with backoff limit per index"));
      }
    }
  }

  /** Whether {@code key} is absent or null in {@code m}, as a nil pointer in Go. */
  public static boolean absent(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v == null || v.isNull();
  }
}
