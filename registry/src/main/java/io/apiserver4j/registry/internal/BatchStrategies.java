/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * batch/v1 Job and CronJob: {@code SetDefaults_Job} and {@code SetDefaults_CronJob}, the Job
 * registry's generated selector, and {@code pkg/apis/batch/validation} (ranges, completion
 * modes, selector and template, immutable fields, the cron schedule as robfig/cron parses it).
 */
final class BatchStrategies {
  private static final int MAX_PARALLELISM_FOR_INDEXED_JOB = 100_000;
  private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug",
      "sep", "oct", "nov", "dec"};
  private static final String[] DAYS = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

  private BatchStrategies() {}

  static void register(Map<GroupVersionKind, ResourceStrategy> out) {
    out.put(new GroupVersionKind("batch", "v1", "Job"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BatchStrategies::defaultJob)
        .selectableFields("status.successful")
        .prepareForCreate((o, old) -> generateJobSelector(o))
        .validator(BatchStrategies::validateJob)
        .build());
    out.put(new GroupVersionKind("batch", "v1", "CronJob"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(BatchStrategies::defaultCronJob)
        .validator(BatchStrategies::validateCronJob)
        .build());
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultJob(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.updateMap(r, BatchStrategies::defaultJobSpec, "spec");
    MapValue templateLabels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    MapValue labels = Nested.mapOrNull(r, "metadata", "labels");
    if (templateLabels != null && (labels == null || labels.isEmpty())) {
      r = Nested.set(r, templateLabels, "metadata", "labels");
    }
    return WorkloadStrategies.defaultTemplate(r);
  }

  private static MapValue defaultJobSpec(MapValue spec) {
    MapValue s = spec;
    if (absent(s, "completions") && absent(s, "parallelism")) {
      s = s.with("completions", Value.of(1L)).with("parallelism", Value.of(1L));
    }
    s = Nested.setDefault(s, Value.of(1L), "parallelism");
    s = Nested.setDefault(s, Value.of(absent(s, "backoffLimitPerIndex") ? 6L
        : Integer.MAX_VALUE), "backoffLimit");
    s = Nested.setDefault(s, Value.of("NonIndexed"), "completionMode");
    s = Nested.setDefault(s, Value.of(false), "suspend");
    s = Nested.updateListItems(s, rule -> Nested.updateListItems(rule,
        p -> Nested.setDefault(p, Value.of("True"), "status"), "onPodConditions"),
        "podFailurePolicy", "rules");
    s = Nested.setDefault(s, Value.of(absent(s, "podFailurePolicy") ? "TerminatingOrFailed"
        : "Failed"), "podReplacementPolicy");
    return Nested.setDefault(s, Value.of(false), "manualSelector");
  }

  private static boolean absent(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v == null || v.isNull();
  }

  static MapValue defaultCronJob(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("Allow"), "spec", "concurrencyPolicy");
    r = Nested.setDefault(r, Value.of(false), "spec", "suspend");
    r = Nested.setDefault(r, Value.of(3L), "spec", "successfulJobsHistoryLimit");
    r = Nested.setDefault(r, Value.of(1L), "spec", "failedJobsHistoryLimit");
    // the job template's pod spec is defaulted; the JobSpec itself is not (it is no Job)
    return Nested.updateMap(r, PodStrategies::defaultPodSpec, "spec", "jobTemplate", "spec",
        "template", "spec");
  }

  // --- registry hooks ----------------------------------------------------------------------

  private static MapValue generateJobSelector(MapValue job) {
    if (Nested.getOrNull(job, "spec", "manualSelector") instanceof BooleanValue b && b.value()) {
      return job;
    }
    String uid = Meta.metaString(job, "uid");
    String name = Meta.metaString(job, "name");
    MapValue r = Nested.set(job, MapValue.ofEntries("matchLabels", MapValue.ofEntries(
        "batch.kubernetes.io/controller-uid", Value.of(uid))), "spec", "selector");
    MapValue labels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    MapValue.Builder l = (labels == null ? MapValue.empty() : labels).toBuilder();
    l.put("batch.kubernetes.io/controller-uid", Value.of(uid));
    l.put("batch.kubernetes.io/job-name", Value.of(name));
    l.put("controller-uid", Value.of(uid));
    l.put("job-name", Value.of(name));
    return Nested.set(r, l.build(), "spec", "template", "metadata", "labels");
  }

  // --- validation --------------------------------------------------------------------------

  private static List<FieldError> validateJob(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    MapValue selector = Nested.mapOrNull(spec, "selector");
    if (selector == null) {
      errs.add(FieldError.required("spec.selector", ""));
    } else {
      KubeValidation.labelSelector(selector, "spec.selector", errs);
      MapValue labels = Nested.map(spec, "template", "metadata", "labels");
      if (!KubeValidation.selectorMatches(selector, labels)) {
        errs.add(FieldError.invalid("spec.template.metadata.labels", labels,
            "`selector` does not match template `labels`"));
      }
    }
    jobSpec(spec, "spec", errs);
    old.ifPresent(prev -> {
      MapValue before = Nested.map(prev, "spec");
      if (!str(spec, "completionMode").equals("Indexed")) {
        KubeValidation.immutable(spec.getOrNull("completions"), before.getOrNull("completions"),
            "spec.completions", errs);
      } else if (spec.getOrNull("completions") instanceof IntegerValue c
          && !c.equals(before.getOrNull("completions"))
          && !c.equals(spec.getOrNull("parallelism"))) {
        errs.add(FieldError.invalid("spec.completions", c,
            "can only be modified in tandem with spec.parallelism"));
      }
      KubeValidation.immutable(spec.getOrNull("selector"), before.getOrNull("selector"),
          "spec.selector", errs);
      KubeValidation.immutable(schedulingAsBefore(spec, prev), before.getOrNull("template"),
          "spec.template", errs);
      for (String f : List.of("completionMode", "podFailurePolicy", "backoffLimitPerIndex",
          "managedBy")) {
        KubeValidation.immutable(spec.getOrNull(f), before.getOrNull(f), "spec." + f, errs);
      }
    });
    return errs;
  }

  /**
   * The new template with the scheduling directives of the old one when kube lets them change:
   * a Job suspended and never started (kube's {@code AllowMutableSchedulingDirectives}, what
   * queueing controllers use to place a Job before they resume it).
   */
  private static Value schedulingAsBefore(MapValue spec, MapValue oldJob) {
    Value template = spec.getOrNull("template");
    boolean suspended = Nested.getOrNull(oldJob, "spec", "suspend") instanceof BooleanValue b
        && b.value();
    if (!suspended || Nested.getOrNull(oldJob, "status", "startTime") != null
        || !(template instanceof MapValue t)) {
      return template;
    }
    MapValue before = Nested.map(oldJob, "spec", "template");
    MapValue r = t;
    for (String[] path : new String[][] {{"metadata", "labels"}, {"metadata", "annotations"},
        {"spec", "nodeSelector"}, {"spec", "tolerations"}, {"spec", "affinity"},
        {"spec", "schedulingGates"}}) {
      Value v = Nested.getOrNull(before, path);
      r = v == null ? Nested.remove(r, path) : Nested.set(r, v, path);
    }
    return r;
  }

  /** {@code validateJobSpec}: what a Job and a CronJob's job template share. */
  private static void jobSpec(MapValue spec, String path, List<FieldError> errs) {
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
    PodStrategies.templateMetadata(template, path + ".template", errs);
    PodStrategies.validatePodSpec(Nested.mapOrNull(spec, "template", "spec"),
        path + ".template.spec", errs);
    String rp = str(spec, "template", "spec", "restartPolicy");
    if (!rp.equals("OnFailure") && !rp.equals("Never")) {
      errs.add(FieldError.notSupported(path + ".template.spec.restartPolicy", Value.of(rp),
          List.of("OnFailure", "Never")));
    }
  }

  private static List<FieldError> validateCronJob(MapValue o, Optional<MapValue> old) {
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
      cronError(schedule).ifPresent(msg -> errs.add(FieldError.invalid("spec.schedule",
          Value.of(schedule), msg)));
      if (schedule.contains("TZ")) {
        errs.add(FieldError.invalid("spec.schedule", Value.of(schedule),
            "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
      }
    }
    if (spec.getOrNull("timeZone") instanceof io.apiserver4j.core.StringValue tz) {
      timeZone(tz, errs);
    }
    KubeValidation.nonNegative(spec.getOrNull("startingDeadlineSeconds"),
        "spec.startingDeadlineSeconds", errs);
    KubeValidation.requiredEnum(spec, "concurrencyPolicy", "spec.concurrencyPolicy",
        List.of("Allow", "Forbid", "Replace"), errs);
    MapValue jobSpec = Nested.map(spec, "jobTemplate", "spec");
    jobSpec(jobSpec, "spec.jobTemplate.spec", errs);
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
  private static void timeZone(io.apiserver4j.core.StringValue tz, List<FieldError> errs) {
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
      java.time.ZoneId.of(zone);
    } catch (java.time.DateTimeException e) {
      errs.add(FieldError.invalid("spec.timeZone", tz, "unknown time zone " + zone));
    }
  }

  // --- cron --------------------------------------------------------------------------------

  /** The error robfig/cron's {@code ParseStandard} gives for {@code spec}, if any. */
  static Optional<String> cronError(String spec) {
    if (spec.isEmpty()) {
      return Optional.of("empty spec string");
    }
    String s = spec;
    if (s.startsWith("TZ=") || s.startsWith("CRON_TZ=")) {
      int space = s.indexOf(' ');
      if (space < 0) {
        return Optional.of("provided bad location " + s.substring(s.indexOf('=') + 1)
            + ": unknown time zone " + s.substring(s.indexOf('=') + 1));
      }
      String zone = s.substring(s.indexOf('=') + 1, space);
      try {
        java.time.ZoneId.of(zone);
      } catch (java.time.DateTimeException e) {
        return Optional.of("provided bad location " + zone + ": unknown time zone " + zone);
      }
      s = s.substring(space).trim();
    }
    if (s.startsWith("@")) {
      return descriptorError(s);
    }
    String[] fields = s.trim().isEmpty() ? new String[0] : s.trim().split("\\s+");
    if (fields.length != 5) {
      return Optional.of("expected exactly 5 fields, found " + fields.length + ": ["
          + String.join(" ", fields) + "]");
    }
    long[][] bounds = {{0, 59}, {0, 23}, {1, 31}, {1, 12}, {0, 6}};
    String[][] names = {null, null, null, MONTHS, DAYS};
    for (int i = 0; i < 5; i++) {
      for (String range : fields[i].split(",", -1)) {
        Optional<String> err = rangeError(range, bounds[i][0], bounds[i][1], names[i]);
        if (err.isPresent()) {
          return err;
        }
      }
    }
    return Optional.empty();
  }

  private static Optional<String> descriptorError(String s) {
    if (List.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly")
        .contains(s)) {
      return Optional.empty();
    }
    String every = "@every ";
    if (s.startsWith(every)) {
      String d = s.substring(every.length());
      try {
        io.apiserver4j.core.GoDurations.parse(d);
        return Optional.empty();
      } catch (RuntimeException e) {
        return Optional.of("failed to parse duration " + s + ": " + e.getMessage());
      }
    }
    return Optional.of("unrecognized descriptor: " + s);
  }

  private static Optional<String> rangeError(String expr, long min, long max, String[] names) {
    String[] rangeAndStep = expr.split("/", -1);
    String[] lowAndHigh = rangeAndStep[0].split("-", -1);
    boolean single = lowAndHigh.length == 1;
    long start;
    long end;
    long step;
    if (lowAndHigh[0].equals("*") || lowAndHigh[0].equals("?")) {
      start = min;
      end = max;
    } else {
      Object a = intOrName(lowAndHigh[0], names);
      if (a instanceof String err) {
        return Optional.of(err);
      }
      start = (Long) a;
      if (lowAndHigh.length == 1) {
        end = start;
      } else if (lowAndHigh.length == 2) {
        Object b = intOrName(lowAndHigh[1], names);
        if (b instanceof String err) {
          return Optional.of(err);
        }
        end = (Long) b;
      } else {
        return Optional.of("too many hyphens: " + expr);
      }
    }
    if (rangeAndStep.length == 1) {
      step = 1;
    } else if (rangeAndStep.length == 2) {
      Object st = parseInt(rangeAndStep[1]);
      if (st instanceof String err) {
        return Optional.of(err);
      }
      step = (Long) st;
      if (single) {
        end = max;
      }
    } else {
      return Optional.of("too many slashes: " + expr);
    }
    if (start < min) {
      return Optional.of("beginning of range (" + start + ") below minimum (" + min + "): "
          + expr);
    }
    if (end > max) {
      return Optional.of("end of range (" + end + ") above maximum (" + max + "): " + expr);
    }
    if (start > end) {
      return Optional.of("beginning of range (" + start + ") beyond end of range (" + end
          + "): " + expr);
    }
    if (step == 0) {
      return Optional.of("step of range should be a positive number: " + expr);
    }
    return Optional.empty();
  }

  // a Long, or the error message
  private static Object intOrName(String expr, String[] names) {
    if (names != null) {
      int i = Arrays.asList(names).indexOf(expr.toLowerCase(Locale.ROOT));
      if (i >= 0) {
        return names == MONTHS ? (long) i + 1 : (long) i;
      }
    }
    return parseInt(expr);
  }

  // Go's strconv.Atoi and robfig/cron's mustParseInt
  private static Object parseInt(String expr) {
    String digits = expr.startsWith("+") || expr.startsWith("-") ? expr.substring(1) : expr;
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return "failed to parse int from " + expr + ": strconv.Atoi: parsing "
          + io.apiserver4j.core.GoStrings.quote(expr) + ": invalid syntax";
    }
    long n;
    try {
      n = Long.parseLong(expr);
    } catch (NumberFormatException e) {
      return "failed to parse int from " + expr + ": strconv.Atoi: parsing "
          + io.apiserver4j.core.GoStrings.quote(expr) + ": value out of range";
    }
    if (n < 0) {
      return "negative number (" + n + ") not allowed: " + expr;
    }
    return n;
  }
}
