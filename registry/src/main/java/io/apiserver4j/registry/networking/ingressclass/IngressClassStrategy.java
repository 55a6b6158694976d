/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.ingressclass;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.map;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.GroupValidation;
import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.networking.validation.NetworkingValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import io.apiserver4j.apiserver.strategy.GenerationPolicy;

/**
 * networking.k8s.io/v1 IngressClass, as kube's {@code pkg/registry/networking/ingressclass}:
 * generation bumped by spec changes, {@code SetDefaults_IngressClass} and
 * {@code ValidateIngressClass}/{@code ValidateIngressClassUpdate} (controller, parameters).
 */
public final class IngressClassStrategy {
  private IngressClassStrategy() {}

  /** The IngressClass's strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .generationPolicy(GenerationPolicy.SPEC)
        .defaulter(IngressClassStrategy::defaults)
        .validator(IngressClassStrategy::validate)
        .build();
  }

  static MapValue defaults(MapValue ic) {
    if (Nested.mapOrNull(ic, "spec", "parameters") == null) {
      return ic;
    }
    return Nested.setDefault(ic, Value.of("Cluster"), "spec", "parameters", "scope");
  }
  static List<FieldError> validate(MapValue ic, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(ic, "spec");
    String controller = str(spec, "controller");
    old.ifPresent(o -> KubeValidation.immutable(Value.of(controller),
        Value.of(str(Nested.mapOrNull(o, "spec"), "controller")), "spec.controller", errs));
    if (controller.isEmpty()) {
      errs.add(FieldError.required("spec.controller", ""));
    } else {
      if (controller.length() > 250) {
        errs.add(FieldError.tooLong("spec.controller", 250));
      }
      GroupValidation.domainPrefixedPath(errs, "spec.controller", controller);
    }
    MapValue params = map(spec, "parameters");
    if (params != null) {
      String at = "spec.parameters";
      if (params.getOrNull("apiGroup") instanceof StringValue g) {
        for (String msg : MetaValidation.dns1123Subdomain(g.value())) {
          errs.add(FieldError.invalid(at + ".apiGroup", g, msg));
        }
      }
      NetworkingValidation.pathSegmentRequired(errs, params, "kind", at);
      NetworkingValidation.pathSegmentRequired(errs, params, "name", at);
      if (!(params.getOrNull("scope") instanceof StringValue scope)) {
        errs.add(FieldError.required(at + ".scope", ""));
      } else if (!scope.value().equals("Cluster") && !scope.value().equals("Namespace")) {
        errs.add(FieldError.notSupported(at + ".scope", scope, List.of("Cluster", "Namespace")));
      } else if (scope.value().equals("Namespace")) {
        if (!(params.getOrNull("namespace") instanceof StringValue ns)) {
          errs.add(FieldError.required(at + ".namespace", "`parameters.scope` is set to 'Namespace'"));
        } else {
          for (String msg : MetaValidation.dns1123Label(ns.value())) {
            errs.add(FieldError.invalid(at + ".namespace", ns, msg));
          }
        }
      } else if (has(params, "namespace")) {
        errs.add(FieldError.forbidden(at + ".namespace", "`parameters.scope` is set to 'Cluster'"));
      }
    }
    return errs;
  }
}
