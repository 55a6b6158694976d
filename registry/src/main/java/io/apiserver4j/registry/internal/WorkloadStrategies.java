/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.internal;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;

/**
 * ReplicationController (core/v1) and the apps/v1 workloads (Deployment, ReplicaSet,
 * StatefulSet, DaemonSet): {@code SetDefaults_*} of {@code pkg/apis/apps/v1} and core/v1, and
 * the validation of {@code pkg/apis/apps/validation} (replicas, selector and template, update
 * strategies, immutable selectors, the StatefulSet spec fields that may change).
 */
final class WorkloadStrategies {
  private static final Pattern PERCENT = Pattern.compile("[0-9]+%");
  private static final String SELECTOR_MISMATCH = "`selector` does not match template `labels`";
  private static final String STATEFULSET_UPDATE = "updates to statefulset spec for fields other"
      + " than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit',"
      + " 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

  private WorkloadStrategies() {}

  static void register(Map<GroupVersionKind, ResourceStrategy> out) {
    out.put(new GroupVersionKind("", "v1", "ReplicationController"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(WorkloadStrategies::defaultReplicationController)
        .validator((o, old) -> validateReplicationController(o))
        .build());
    out.put(apps("Deployment"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC_AND_ANNOTATIONS)
        .extraStatusResetFields(FieldSet.of(FieldPath.of(new FieldName("metadata"),
            new FieldName("labels"))))
        .statusPreservedMetadata("labels")
        .defaulter(WorkloadStrategies::defaultDeployment)
        .validator((o, old) -> validateDeployment(o, old))
        .build());
    out.put(apps("ReplicaSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(WorkloadStrategies::defaultReplicaSet)
        .validator((o, old) -> validateReplicaSet(o, old))
        .build());
    out.put(apps("StatefulSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(WorkloadStrategies::defaultStatefulSet)
        .validator((o, old) -> validateStatefulSet(o, old))
        .build());
    out.put(apps("DaemonSet"), ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(WorkloadStrategies::defaultDaemonSet)
        .validator((o, old) -> validateDaemonSet(o, old))
        .build());
  }

  private static GroupVersionKind apps(String kind) {
    return new GroupVersionKind("apps", "v1", kind);
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultTemplate(MapValue obj) {
    return Nested.updateMap(obj, PodStrategies::defaultPodSpec, "spec", "template", "spec");
  }

  static MapValue defaultDeployment(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "strategy", "type");
    if (str(r, "spec", "strategy", "type").equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of("25%"), "spec", "strategy", "rollingUpdate", "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    r = Nested.setDefault(r, Value.of(600L), "spec", "progressDeadlineSeconds");
    return defaultTemplate(r);
  }

  static MapValue defaultReplicaSet(MapValue o) {
    if (Nested.mapOrNull(o, "spec") == null) {
      return o;
    }
    return defaultTemplate(Nested.setDefault(o, Value.of(1L), "spec", "replicas"));
  }

  // SetDefaults_ReplicationController: the selector and the labels default to the template's.
  static MapValue defaultReplicationController(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    MapValue templateLabels = Nested.mapOrNull(r, "spec", "template", "metadata", "labels");
    if (templateLabels != null && !templateLabels.isEmpty()) {
      MapValue selector = Nested.mapOrNull(r, "spec", "selector");
      if (selector == null || selector.isEmpty()) {
        r = Nested.set(r, templateLabels, "spec", "selector");
      }
      MapValue labels = Nested.mapOrNull(r, "metadata", "labels");
      if (labels == null || labels.isEmpty()) {
        r = Nested.set(r, templateLabels, "metadata", "labels");
      }
    }
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    return defaultTemplate(r);
  }

  static MapValue defaultStatefulSet(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("OrderedReady"), "spec", "podManagementPolicy");
    if (str(r, "spec", "updateStrategy", "type").isEmpty()) {
      r = Nested.set(r, Value.of("RollingUpdate"), "spec", "updateStrategy", "type");
      r = Nested.setDefault(r, MapValue.empty(), "spec", "updateStrategy", "rollingUpdate");
    }
    if (str(r, "spec", "updateStrategy", "type").equals("RollingUpdate")
        && Nested.mapOrNull(r, "spec", "updateStrategy", "rollingUpdate") != null) {
      r = Nested.setDefault(r, Value.of(0L), "spec", "updateStrategy", "rollingUpdate",
          "partition");
    }
    r = Nested.setDefault(r, Value.of("Retain"), "spec", "persistentVolumeClaimRetentionPolicy",
        "whenDeleted");
    r = Nested.setDefault(r, Value.of("Retain"), "spec", "persistentVolumeClaimRetentionPolicy",
        "whenScaled");
    r = Nested.setDefault(r, Value.of(1L), "spec", "replicas");
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    // the claim templates are PersistentVolumeClaims: SetDefaults_PersistentVolumeClaimSpec
    r = Nested.updateListItems(r, pvc -> Nested.updateMap(pvc, s -> Nested.setDefault(s,
        Value.of("Filesystem"), "volumeMode"), "spec"), "spec", "volumeClaimTemplates");
    return defaultTemplate(r);
  }

  static MapValue defaultDaemonSet(MapValue o) {
    MapValue r = o;
    if (Nested.mapOrNull(r, "spec") == null) {
      return r;
    }
    r = Nested.setDefault(r, Value.of("RollingUpdate"), "spec", "updateStrategy", "type");
    if (str(r, "spec", "updateStrategy", "type").equals("RollingUpdate")) {
      r = Nested.setDefault(r, Value.of(1L), "spec", "updateStrategy", "rollingUpdate",
          "maxUnavailable");
      r = Nested.setDefault(r, Value.of(0L), "spec", "updateStrategy", "rollingUpdate",
          "maxSurge");
    }
    r = Nested.setDefault(r, Value.of(10L), "spec", "revisionHistoryLimit");
    return defaultTemplate(r);
  }

  // --- validation --------------------------------------------------------------------------

  private static MapValue labels(MapValue spec) {
    MapValue l = Nested.mapOrNull(spec, "template", "metadata", "labels");
    return l == null ? MapValue.empty() : l;
  }

  private static void template(MapValue spec, boolean matches, boolean checkMatch,
      String workload, List<FieldError> errs) {
    MapValue template = Nested.mapOrNull(spec, "template");
    if (template == null) {
      errs.add(FieldError.required("spec.template", ""));
      return;
    }
    if (checkMatch && !matches) {
      errs.add(FieldError.invalid("spec.template.metadata.labels", labels(spec),
          SELECTOR_MISMATCH));
    }
    PodStrategies.templateMetadata(template, "spec.template", errs);
    PodStrategies.validatePodSpec(Nested.mapOrNull(template, "spec"), "spec.template.spec",
        errs);
    String rp = str(template, "spec", "restartPolicy");
    if (!rp.equals("Always")) {
      errs.add(FieldError.notSupported("spec.template.spec.restartPolicy", Value.of(rp),
          List.of("Always")));
    }
    Value ads = Nested.getOrNull(template, "spec", "activeDeadlineSeconds");
    if (ads instanceof IntegerValue) {
      errs.add(FieldError.invalid("spec.template.spec.activeDeadlineSeconds", ads,
          "activeDeadlineSeconds in " + workload + " is not Supported"));
    }
  }

  private static List<FieldError> validateReplicationController(MapValue o) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    MapValue selector = Nested.map(spec, "selector");
    if (selector.isEmpty()) {
      errs.add(FieldError.required("spec.selector", ""));
    } else {
      errs.addAll(MetaValidation.labels(selector, "spec.selector"));
    }
    template(spec, KubeValidation.labelSetMatches(selector, labels(spec)), !selector.isEmpty(),
        "ReplicationController", errs);
    return errs;
  }

  private static List<FieldError> validateDeployment(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    // Deployments share ReplicaSet's template rules and wording
    selectorAndTemplateNamed(spec, "deployment", "ReplicaSet", errs);
    deploymentStrategy(Nested.map(spec, "strategy"), errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    KubeValidation.nonNegative(spec.getOrNull("revisionHistoryLimit"),
        "spec.revisionHistoryLimit", errs);
    if (spec.getOrNull("progressDeadlineSeconds") instanceof IntegerValue pds) {
      KubeValidation.nonNegative(pds, "spec.progressDeadlineSeconds", errs);
      long minReady = spec.getOrNull("minReadySeconds") instanceof IntegerValue m ? m.value() : 0;
      if (pds.value() <= minReady) {
        errs.add(FieldError.invalid("spec.progressDeadlineSeconds", pds,
            "must be greater than minReadySeconds"));
      }
    }
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }

  private static void deploymentStrategy(MapValue strategy, List<FieldError> errs) {
    String type = str(strategy, "type");
    switch (type) {
      case "Recreate" -> {
        if (strategy.getOrNull("rollingUpdate") instanceof MapValue) {
          errs.add(FieldError.forbidden("spec.strategy.rollingUpdate",
              "may not be specified when strategy `type` is 'Recreate'"));
        }
      }
      case "RollingUpdate" -> {
        MapValue ru = Nested.mapOrNull(strategy, "rollingUpdate");
        if (ru == null) {
          errs.add(FieldError.required("spec.strategy.rollingUpdate",
              "this should be defaulted and never be nil"));
          return;
        }
        String path = "spec.strategy.rollingUpdate";
        intOrPercent(ru.getOrNull("maxUnavailable"), path + ".maxUnavailable", errs);
        intOrPercent(ru.getOrNull("maxSurge"), path + ".maxSurge", errs);
        if (intOrPercentValue(ru.getOrNull("maxUnavailable")) == 0
            && intOrPercentValue(ru.getOrNull("maxSurge")) == 0) {
          errs.add(FieldError.invalid(path + ".maxUnavailable", orZero(ru.getOrNull(
              "maxUnavailable")), "may not be 0 when `maxSurge` is 0"));
        }
        notMoreThan100Percent(ru.getOrNull("maxUnavailable"), path + ".maxUnavailable", errs);
      }
      default -> errs.add(FieldError.notSupported("spec.strategy", strategy,
          List.of("Recreate", "RollingUpdate")));
    }
  }

  private static Value orZero(Value v) {
    return v == null ? Value.of(0L) : v;
  }

  /** apps' {@code ValidatePositiveIntOrPercent}. */
  private static void intOrPercent(Value v, String path, List<FieldError> errs) {
    if (v instanceof StringValue s) {
      if (!PERCENT.matcher(s.value()).matches()) {
        errs.add(FieldError.invalid(path, s, MetaValidation.regexError("a valid percent string"
            + " must be a numeric string followed by an ending '%'", "[0-9]+%", "1%", "93%")));
      }
    } else {
      KubeValidation.nonNegative(v, path, errs);
    }
  }

  // getIntOrPercentValue: the number of an int or of a valid percent; 0 otherwise
  private static long intOrPercentValue(Value v) {
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

  private static void notMoreThan100Percent(Value v, String path, List<FieldError> errs) {
    if (v instanceof StringValue s && PERCENT.matcher(s.value()).matches()
        && intOrPercentValue(v) > 100) {
      errs.add(FieldError.invalid(path, s, "must not be greater than 100%"));
    }
  }

  private static List<FieldError> validateReplicaSet(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    // kube's ValidateReplicaSetSpec reuses the deployment wording
    selectorAndTemplateNamed(spec, "deployment", "ReplicaSet", errs);
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }

  private static void selectorAndTemplateNamed(MapValue spec, String selectorWording,
      String workload, List<FieldError> errs) {
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
    template(spec, check && KubeValidation.selectorMatches(selector, labels(spec)), check,
        workload, errs);
  }

  private static List<FieldError> validateStatefulSet(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    String pmp = str(spec, "podManagementPolicy");
    if (pmp.isEmpty()) {
      errs.add(FieldError.required("spec.podManagementPolicy", ""));
    } else if (!pmp.equals("OrderedReady") && !pmp.equals("Parallel")) {
      errs.add(FieldError.invalid("spec.podManagementPolicy", Value.of(pmp),
          "must be 'OrderedReady' or 'Parallel'"));
    }
    MapValue us = Nested.map(spec, "updateStrategy");
    switch (str(us, "type")) {
      case "OnDelete" -> {
        if (us.getOrNull("rollingUpdate") instanceof MapValue) {
          errs.add(FieldError.invalid("spec.updateStrategy.rollingUpdate",
              us.getOrNull("rollingUpdate"), "only allowed for updateStrategy 'RollingUpdate'"));
        }
      }
      case "RollingUpdate" -> KubeValidation.nonNegative(Nested.getOrNull(us, "rollingUpdate",
          "partition"), "spec.updateStrategy.rollingUpdate.partition", errs);
      case "" -> errs.add(FieldError.required("spec.updateStrategy", ""));
      default -> errs.add(FieldError.invalid("spec.updateStrategy", us,
          "must be 'RollingUpdate' or 'OnDelete'"));
    }
    MapValue retention = Nested.map(spec, "persistentVolumeClaimRetentionPolicy");
    for (String when : List.of("whenDeleted", "whenScaled")) {
      KubeValidation.optionalEnum(retention, when,
          "spec.persistentVolumeClaimRetentionPolicy." + when, List.of("Retain", "Delete"),
          errs);
    }
    KubeValidation.nonNegative(spec.getOrNull("replicas"), "spec.replicas", errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    selectorAndTemplateNamed(spec, "statefulset", "StatefulSet", errs);
    old.ifPresent(prev -> {
      MapValue before = Nested.map(prev, "spec");
      MapValue munged = spec;
      for (String k : List.of("replicas", "template", "updateStrategy", "minReadySeconds",
          "ordinals", "revisionHistoryLimit", "persistentVolumeClaimRetentionPolicy")) {
        Value v = before.getOrNull(k);
        munged = v == null ? munged.without(k) : munged.with(k, v);
      }
      if (!munged.equals(before)) {
        errs.add(FieldError.forbidden("spec", STATEFULSET_UPDATE));
      }
    });
    return errs;
  }

  private static List<FieldError> validateDaemonSet(MapValue o, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.map(o, "spec");
    selectorAndTemplateNamed(spec, "daemonset", "DaemonSet", errs);
    KubeValidation.nonNegative(spec.getOrNull("minReadySeconds"), "spec.minReadySeconds", errs);
    KubeValidation.nonNegative(spec.getOrNull("templateGeneration"), "spec.templateGeneration",
        errs);
    MapValue us = Nested.map(spec, "updateStrategy");
    String path = "spec.updateStrategy";
    switch (str(us, "type")) {
      case "OnDelete" -> { }
      case "RollingUpdate" -> {
        MapValue ru = Nested.mapOrNull(us, "rollingUpdate");
        if (ru == null) {
          errs.add(FieldError.required(path + ".rollingUpdate", ""));
          break;
        }
        String rp = path + ".rollingUpdate";
        intOrPercent(ru.getOrNull("maxUnavailable"), rp + ".maxUnavailable", errs);
        intOrPercent(ru.getOrNull("maxSurge"), rp + ".maxSurge", errs);
        notMoreThan100Percent(ru.getOrNull("maxUnavailable"), rp + ".maxUnavailable", errs);
        notMoreThan100Percent(ru.getOrNull("maxSurge"), rp + ".maxSurge", errs);
        boolean unavailable = intOrPercentValue(ru.getOrNull("maxUnavailable")) != 0;
        boolean surge = intOrPercentValue(ru.getOrNull("maxSurge")) != 0;
        if (unavailable && surge) {
          errs.add(FieldError.invalid(rp + ".maxSurge", ru.getOrNull("maxSurge"),
              "may not be set when maxUnavailable is non-zero"));
        } else if (!unavailable && !surge) {
          errs.add(FieldError.required(rp + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
        }
      }
      default -> errs.add(FieldError.notSupported(path + ".type", Value.of(str(us, "type")),
          List.of("OnDelete", "RollingUpdate")));
    }
    KubeValidation.nonNegative(spec.getOrNull("revisionHistoryLimit"),
        "spec.revisionHistoryLimit", errs);
    old.ifPresent(prev -> KubeValidation.immutable(spec.getOrNull("selector"),
        Nested.getOrNull(prev, "spec", "selector"), "spec.selector", errs));
    return errs;
  }
}
