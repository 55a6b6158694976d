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
import io.apiserver4j.core.ListValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

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
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        .gatedValidator(StatefulSetStrategy::validate)
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
    // the claim templates are PersistentVolumeClaims: SetDefaults_PersistentVolumeClaim (a
    // Pending phase) and SetDefaults_PersistentVolumeClaimSpec
    r = Nested.updateListItems(r, pvc -> Nested.setDefault(Nested.updateMap(pvc,
        s -> Nested.setDefault(s, Value.of("Filesystem"), "volumeMode"), "spec"),
        Value.of("Pending"), "status", "phase"), "spec", "volumeClaimTemplates");
    return Nested.updateMap(r, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
  }

  /**
   * The spec whose pod template also has a volume per claim template its pods will get (a
   * claim named after the template), as kube 1.34+'s {@code ValidateStatefulSetSpec} validates
   * the template: containers may mount the claim templates' volumes. A template volume of the
   * same name is left as it is.
   */
  static MapValue withClaimVolumes(MapValue spec) {
    List<MapValue> claims = KubeValidation.items(spec.getOrNull("volumeClaimTemplates"));
    if (claims.isEmpty() || Nested.mapOrNull(spec, "template", "spec") == null) {
      return spec;
    }
    List<Value> volumes = new ArrayList<>(Nested.list(spec, "template", "spec", "volumes"));
    Set<String> names = new HashSet<>();
    for (Value v : volumes) {
      names.add(Nested.str(v, "name"));
    }
    boolean added = false;
    for (MapValue claim : claims) {
      String name = Nested.str(claim, "metadata", "name");
      if (names.add(name)) {
        volumes.add(MapValue.builder().put("name", Value.of(name)).put("persistentVolumeClaim",
            MapValue.builder().put("claimName", Value.of(name)).build()).build());
        added = true;
      }
    }
    return added ? Nested.set(spec, ListValue.of(volumes), "template", "spec", "volumes") : spec;
  }

  static List<FieldError> validate(MapValue o, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
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
    WorkloadValidation.selectorAndTemplate(withClaimVolumes(spec), "statefulset", "StatefulSet",
        PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"), errs);
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
