/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.batch.job;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;
import static io.apiserver4j.registry.batch.validation.JobSpecValidation.absent;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.batch.validation.JobSpecValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * batch/v1 Job, as kube's {@code pkg/registry/batch/job}: generation bumped by spec changes,
 * {@code status.successful} selectable, {@code SetDefaults_Job}, the selector generated on
 * create, and {@code ValidateJob}/{@code ValidateJobUpdate} (selector and template, the job
 * spec, immutable fields, scheduling directives of a suspended Job never started).
 */
public final class JobStrategy {
  private JobStrategy() {}

  /** The Job's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(JobStrategy::defaults)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        // SetDefaults_Job copies the template's labels, which generateSelector sets after the
        // create's defaulting: kube's Jobs gain them when they are first read back
        .defaultOnRead()
        .selectableFields("status.successful")
        .prepareForCreate((o, old) -> generateSelector(o))
        .gatedValidator(JobStrategy::validate)
        .build();
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaults(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.updateMap(r, JobStrategy::defaultSpec, "spec");
    MapValue templateLabels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    MapValue labels = Nested.mapOrNull(r, "metadata", "labels");
    if (templateLabels != null && (labels == null || labels.isEmpty())) {
      r = Nested.set(r, templateLabels, "metadata", "labels");
    }
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  private static MapValue defaultSpec(MapValue spec) {
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

  // --- registry hooks ----------------------------------------------------------------------

  private static MapValue generateSelector(MapValue job) {
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

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
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
    JobSpecValidation.jobSpec(spec, "spec", PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"),
        errs);
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
}
