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
 * {@code pkg/apis/batch/validation}: ranges, completion modes, pod replacement policy and the
 * pod template with its restart policy. Errors are appended in kube's order. Stateless and
 * thread-safe.
 */
public final class JobSpecValidation {
  private static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;

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

  /** Whether {@code key} is absent or null in {@code m}, as a nil pointer in Go. */
  public static boolean absent(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v == null || v.isNull();
  }
}
