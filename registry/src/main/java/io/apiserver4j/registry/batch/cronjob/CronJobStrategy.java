/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.cronjob;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.batch.validation.JobSpecValidation;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * batch/v1 CronJob, as kube's {@code pkg/registry/batch/cronjob}: generation bumped by spec
 * changes, {@code SetDefaults_CronJob} and {@code ValidateCronJobCreate}/
 * {@code ValidateCronJobUpdate} (name length, schedule and time zone, concurrency policy, the
 * job template, history limits).
 */
public final class CronJobStrategy {
  private CronJobStrategy() {}

  /** The CronJob's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(CronJobStrategy::defaults)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "jobTemplate", "spec", "template"))
        .gatedValidator(CronJobStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("Allow"), "spec", "concurrencyPolicy");
    r = Nested.setDefault(r, Value.of(false), "spec", "suspend");
    r = Nested.setDefault(r, Value.of(3L), "spec", "successfulJobsHistoryLimit");
    r = Nested.setDefault(r, Value.of(1L), "spec", "failedJobsHistoryLimit");
    // the job template's pod spec is defaulted; the JobSpec itself is not (it is no Job)
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "jobTemplate", "spec",
        "template", "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
    List<FieldError> errs = new ArrayList<>();
    String name = Meta.metaString(o, "name");
    // the controller appends an 11-character suffix to make its Jobs' names
    if (old.isEmpty() && name.length() > 52) {
      errs.add(FieldError.invalid("metadata.name", Value.of(name),
          "must be no more than 52 characters"));
    }
    MapValue spec = Nested.map(o, "spec");
    String schedule = str(spec, "schedule");
    if (schedule.isEmpty()) {
      errs.add(FieldError.required("spec.schedule", ""));
    } else {
      CronSchedule.error(schedule).ifPresent(msg -> errs.add(FieldError.invalid(
          "spec.schedule", Value.of(schedule), msg)));
      if (schedule.contains("TZ")) {
        errs.add(FieldError.invalid("spec.schedule", Value.of(schedule),
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
      }
    }
    if (spec.getOrNull("timeZone") instanceof StringValue tz) {
      timeZone(tz, errs);
    }
    KubeValidation.nonNegative(spec.getOrNull("startingDeadlineSeconds"),
        "spec.startingDeadlineSeconds", errs);
    KubeValidation.requiredEnum(spec, "concurrencyPolicy", "spec.concurrencyPolicy",
        List.of("Allow", "Forbid", "Replace"), errs);
    MapValue jobSpec = Nested.map(spec, "jobTemplate", "spec");
    JobSpecValidation.jobSpec(jobSpec, "spec.jobTemplate.spec",
        PodValidationOptions.ofTemplate(gates, o, old, "spec", "jobTemplate", "spec", "template"), errs);
    if (jobSpec.getOrNull("selector") instanceof MapValue sel) {
      errs.add(FieldError.invalid("spec.jobTemplate.spec.selector", sel,
          "`selector` will be auto-generated"));
    }
    if (jobSpec.getOrNull("manualSelector") instanceof BooleanValue b && b.value()) {
      errs.add(FieldError.notSupported("spec.jobTemplate.spec.manualSelector", b,
          List.of("nil", "false")));
    }
    KubeValidation.nonNegative(spec.getOrNull("successfulJobsHistoryLimit"),
        "spec.successfulJobsHistoryLimit", errs);
    KubeValidation.nonNegative(spec.getOrNull("failedJobsHistoryLimit"),
        "spec.failedJobsHistoryLimit", errs);
    return errs;
  }

  /** {@code validateTimeZone}: an explicit IANA zone the server knows. */
  private static void timeZone(StringValue tz, List<FieldError> errs) {
    String zone = tz.value();
    if (zone.isEmpty()) {
      errs.add(FieldError.invalid("spec.timeZone", tz, "timeZone must be nil or non-empty string"));
      return;
    }
    if (zone.equalsIgnoreCase("Local")) {
      errs.add(FieldError.invalid("spec.timeZone", tz, "timeZone must be an explicit time zone as"
          + " defined in https://www.iana.org/time-zones"));
      return;
    }
    try {
      ZoneId.of(zone);
    } catch (DateTimeException e) {
      errs.add(FieldError.invalid("spec.timeZone", tz, "unknown time zone " + zone));
    }
  }
}
