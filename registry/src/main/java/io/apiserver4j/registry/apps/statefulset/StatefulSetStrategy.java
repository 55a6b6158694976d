/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.apps.statefulset;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.apps.validation.WorkloadValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;

/**
 * apps/v1 StatefulSet, as kube's {@code pkg/registry/apps/statefulset}: generation bumped by
 * spec changes, {@code SetDefaults_StatefulSet} (with its claim templates' defaults) and
 * {@code ValidateStatefulSet}/{@code ValidateStatefulSetUpdate} (pod management and update
 * policies, claim retention, selector and template, the spec fields that may change).
 */
public final class StatefulSetStrategy {
  private static final String STATEFULSET_UPDATE = "updates to statefulset spec for fields other"
      + " than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit',"
      + " 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden";

  private StatefulSetStrategy() {}

  /** The StatefulSet's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(StatefulSetStrategy::defaults)
        .validator(StatefulSetStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue o) {
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
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old) {
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
    WorkloadValidation.selectorAndTemplate(spec, "statefulset", "StatefulSet", errs);
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
}
