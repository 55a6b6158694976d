/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.replicationcontroller;

import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import io.apiserver4j.registry.core.validation.PodValidationOptions;

/**
 * ReplicationController (core/v1): {@code SetDefaults_ReplicationController} and
 * {@code ValidateReplicationController} (replicas, selector and template).
 */
public final class ReplicationControllerStrategy {

  private ReplicationControllerStrategy() {}

  /** The ReplicationController's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(ReplicationControllerStrategy::defaultReplicationController)
        .dropDisabledFields(PodDisabledFields.inTemplate("spec", "template"))
        .gatedValidator(ReplicationControllerStrategy::validateReplicationController)
        .build();
  }

  // --- defaulting --------------------------------------------------------------------------

  static MapValue defaultTemplate(MapValue obj) {
    return Nested.updateMap(obj, PodSpecDefaults::defaultPodSpec, "spec", "template", "spec");
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

  // --- validation --------------------------------------------------------------------------

  private static List<FieldError> validateReplicationController(MapValue o,
      java.util.Optional<MapValue> old, io.apiserver4j.kubeapi.FeatureGates gates) {
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
    boolean matches =
        KubeValidation.labelSetMatches(selector, PodSpecValidation.templateLabels(spec));
    PodSpecValidation.controllerTemplate(spec, matches, !selector.isEmpty(),
        "ReplicationController", PodValidationOptions.ofTemplate(gates, o, old, "spec", "template"),
        errs);
    return errs;
  }
}
