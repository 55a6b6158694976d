/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.podtemplate;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.Nested;
import io.apiserver4j.registry.core.validation.PodSpecDefaults;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import io.apiserver4j.registry.core.validation.PodSpecValidation.SpecOf;
import io.apiserver4j.registry.core.validation.PodValidationOptions;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.registry.core.pod.PodDisabledFields;
import java.util.ArrayList;
import java.util.List;

/**
 * core/v1 PodTemplate, as kube's {@code pkg/registry/core/podtemplate}: its template's pod spec
 * defaulted and validated by the pod template rules ({@code ValidatePodTemplate}).
 */
public final class PodTemplateStrategy {
  private PodTemplateStrategy() {}

  /** The PodTemplate's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .defaulter(o -> Nested.updateMap(o, PodSpecDefaults::defaultPodSpec, "template", "spec"))
        .dropDisabledFields(PodDisabledFields.inTemplate("template"))
        .gatedValidator((o, old, gates) -> {
          List<FieldError> errs = new ArrayList<>();
          PodSpecValidation.templateMetadata(Nested.mapOrNull(o, "template"), "template", errs);
          MapValue spec = Nested.mapOrNull(o, "template", "spec");
          PodSpecValidation.validatePodSpec(spec, "template.spec", SpecOf.TEMPLATE,
              PodValidationOptions.of(gates, spec,
                  old.map(t -> Nested.mapOrNull(t, "template", "spec")).orElse(null)), errs);
          return errs;
        })
        .build();
  }
}
