/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.node.runtimeclass;

import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * node.k8s.io/v1 RuntimeClass, as kube's {@code pkg/registry/node/runtimeclass} with
 * {@code ValidateRuntimeClass} (handler, overhead, scheduling) and
 * {@code ValidateRuntimeClassUpdate} (handler immutable).
 */
public final class RuntimeClassStrategy {
  private RuntimeClassStrategy() {}

  /** The RuntimeClass's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .validator(RuntimeClassStrategy::validate)
        .build();
  }

  static List<FieldError> validate(MapValue rc, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    String handler = str(rc, "handler");
    for (String msg : MetaValidation.dns1123Label(handler)) {
      errs.add(FieldError.invalid("handler", Value.of(handler), msg));
    }
    MapValue fixed = Nested.mapOrNull(rc, "overhead", "podFixed");
    if (fixed != null) {
      for (int i = 0; i < fixed.size(); i++) {
        Value q = fixed.valueAt(i);
        if (KubeValidation.quantitySign(q).map(s -> s < 0).orElse(false)) {
          String text = q instanceof io.apiserver4j.core.StringValue s ? s.value() : q.toString();
          errs.add(FieldError.invalid("overhead.podFixed[" + fixed.keyAt(i) + "]",
              Value.of(text), "must be greater than or equal to 0"));
        }
      }
    }
    MapValue scheduling = Nested.mapOrNull(rc, "scheduling");
    if (scheduling != null) {
      errs.addAll(MetaValidation.labels(scheduling.getOrNull("nodeSelector"),
          "scheduling.nodeSelector"));
      // core's ValidateTolerations, as for pods
      PodSpecValidation.validateTolerations(
          KubeValidation.items(scheduling.getOrNull("tolerations")), "scheduling.tolerations",
          errs);
    }
    old.ifPresent(o -> KubeValidation.immutable(Value.of(handler),
        Value.of(str(o, "handler")), "handler", errs));
    return errs;
  }
}
