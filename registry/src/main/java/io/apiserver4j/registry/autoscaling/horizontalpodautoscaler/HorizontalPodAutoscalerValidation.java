/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.autoscaling.horizontalpodautoscaler;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.integer;
import static io.apiserver4j.apimachinery.validation.GroupValidation.list;
import static io.apiserver4j.apimachinery.validation.GroupValidation.map;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * kube's {@code pkg/apis/autoscaling/validation} of a HorizontalPodAutoscaler: replicas, the
 * scale target, metrics and their targets, scaling behaviour and status counts. Errors carry
 * the paths of kube's internal type, so a v1 {@code targetCPUUtilizationPercentage} is
 * reported as the CPU metric it converts to.
 */
final class HorizontalPodAutoscalerValidation {
  private static final List<String> SOURCE_TYPES = List.of("ContainerResource", "External",
      "Object", "Pods", "Resource");
  private static final int MAX_PERIOD_SECONDS = 1800;
  private static final int MAX_STABILIZATION_SECONDS = 3600;

  private HorizontalPodAutoscalerValidation() {}

  private static long minReplicasLowerBound(Optional<MapValue> old) {
    // an HPA stored with minReplicas 0 (scale to zero) keeps that lower bound on updates
    return old.map(o -> Long.valueOf(0).equals(integer(Nested.mapOrNull(o, "spec"),
        "minReplicas"))).orElse(false) ? 0 : 1;
  }

  static List<FieldError> validateV1(MapValue hpa, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(hpa, "spec");
    replicas(errs, spec, minReplicasLowerBound(old));
    crossVersionRef(errs, map(spec, "scaleTargetRef"), "spec.scaleTargetRef");
    Long cpu = integer(spec, "targetCPUUtilizationPercentage");
    if (cpu != null && cpu < 1) {
      errs.add(FieldError.invalid("spec.metrics[0].resource.target.averageUtilization",
          Value.of(cpu), "must be greater than 0"));
    }
    status(errs, hpa);
    return errs;
  }

  static List<FieldError> validateV2(MapValue hpa, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(hpa, "spec");
    replicas(errs, spec, minReplicasLowerBound(old));
    crossVersionRef(errs, map(spec, "scaleTargetRef"), "spec.scaleTargetRef");
    List<Value> metrics = list(spec, "metrics");
    boolean objectOrExternal = false;
    for (int i = 0; i < metrics.size(); i++) {
      metric(errs, metrics.get(i), "spec.metrics[" + i + "]");
      String type = str(metrics.get(i), "type");
      objectOrExternal |= type.equals("Object") || type.equals("External");
    }
    if (Long.valueOf(0).equals(integer(spec, "minReplicas")) && !objectOrExternal) {
      errs.add(FieldError.forbidden("spec.metrics", "must specify at least one Object or"
          + " External metric to support scaling to zero replicas"));
    }
    MapValue behavior = map(spec, "behavior");
    if (behavior != null) {
      scalingRules(errs, map(behavior, "scaleUp"), "spec.behavior.scaleUp");
      scalingRules(errs, map(behavior, "scaleDown"), "spec.behavior.scaleDown");
    }
    status(errs, hpa);
    return errs;
  }

  private static void status(List<FieldError> errs, MapValue hpa) {
    MapValue status = Nested.mapOrNull(hpa, "status");
    KubeValidation.nonNegative(Nested.getOrNull(status, "currentReplicas"),
        "status.currentReplicas", errs);
    KubeValidation.nonNegative(Nested.getOrNull(status, "desiredReplicas"),
        "status.desiredReplicas", errs);
  }

  private static void replicas(List<FieldError> errs, MapValue spec, long lowerBound) {
    Long min = integer(spec, "minReplicas");
    long max = integer(spec, "maxReplicas") == null ? 0 : integer(spec, "maxReplicas");
    if (min != null && min < lowerBound) {
      errs.add(FieldError.invalid("spec.minReplicas", Value.of(min),
          "must be greater than or equal to " + lowerBound));
    }
    if (max < 1) {
      errs.add(FieldError.invalid("spec.maxReplicas", Value.of(max), "must be greater than 0"));
    }
    if (min != null && max < min) {
      errs.add(FieldError.invalid("spec.maxReplicas", Value.of(max),
          "must be greater than or equal to `minReplicas`"));
    }
  }

  // ValidateCrossVersionObjectReference: kind and name required path segments
  private static void crossVersionRef(List<FieldError> errs, MapValue ref, String at) {
    pathSegmentRequired(errs, ref, "kind", at);
    pathSegmentRequired(errs, ref, "name", at);
  }

  private static void pathSegmentRequired(List<FieldError> errs, MapValue ref, String key,
      String at) {
    String v = str(ref, key);
    if (v.isEmpty()) {
      errs.add(FieldError.required(at + "." + key, ""));
      return;
    }
    for (String msg : MetaValidation.pathSegment(v, false)) {
      errs.add(FieldError.invalid(at + "." + key, Value.of(v), msg));
    }
  }

  private static void metric(List<FieldError> errs, Value m, String at) {
    String type = str(m, "type");
    if (type.isEmpty()) {
      errs.add(FieldError.required(at + ".type", "must specify a metric source type"));
    }
    if (!SOURCE_TYPES.contains(type)) {
      errs.add(FieldError.notSupported(at + ".type", Value.of(type), SOURCE_TYPES));
    }
    List<String> present = new ArrayList<>();
    for (String source : List.of("object", "external", "pods", "resource", "containerResource")) {
      if (has(m, source)) {
        present.add(source);
        if (present.size() == 1) {
          source(errs, source, map(m, source), at + "." + source);
        }
      }
    }
    String expected = switch (type) {
      case "Object" -> "object";
      case "Pods" -> "pods";
      case "Resource" -> "resource";
      case "External" -> "external";
      case "ContainerResource" -> "containerResource";
      default -> null;
    };
    if (expected == null) {
      errs.add(FieldError.notSupported(at + ".type", Value.of(type), SOURCE_TYPES));
    } else if (!present.contains(expected)) {
      errs.add(FieldError.required(at + "." + expected,
          "must populate information for the given metric source"));
    }
    if (present.size() != 1) {
      // Go walks a set here; sorted for stable messages
      TreeSet<String> others = new TreeSet<>(present);
      if (expected != null) {
        others.remove(expected);
      }
      for (String other : others) {
        errs.add(FieldError.forbidden(at + "." + other,
            "must populate the given metric source only"));
      }
    }
  }

  private static void source(List<FieldError> errs, String kind, MapValue src, String at) {
    MapValue target = map(src, "target");
    switch (kind) {
      case "object" -> {
        crossVersionRef(errs, map(src, "describedObject"), at + ".describedObject");
        metricIdentifier(errs, map(src, "metric"), at + ".metric");
        target(errs, target, at + ".target");
        if (!has(target, "value") && !has(target, "averageValue")) {
          errs.add(FieldError.required(at + ".target.averageValue",
              "must set either a target value or averageValue"));
        }
      }
      case "external" -> {
        metricIdentifier(errs, map(src, "metric"), at + ".metric");
        target(errs, target, at + ".target");
        if (!has(target, "value") && !has(target, "averageValue")) {
          errs.add(FieldError.required(at + ".target.averageValue",
              "must set either a target value for metric or a per-pod target"));
        }
        if (has(target, "value") && has(target, "averageValue")) {
          errs.add(FieldError.forbidden(at + ".target.value",
              "may not set both a target value for metric and a per-pod target"));
        }
      }
      case "pods" -> {
        metricIdentifier(errs, map(src, "metric"), at + ".metric");
        target(errs, target, at + ".target");
        if (!has(target, "averageValue")) {
          errs.add(FieldError.required(at + ".target.averageValue",
              "must specify a positive target averageValue"));
        }
      }
      default -> {
        String name = str(src, "name");
        if (name.isEmpty()) {
          errs.add(FieldError.required(at + ".name", "must specify a resource name"));
        } else if (kind.equals("containerResource")) {
          containerResourceName(errs, name, at + ".name");
        }
        if (kind.equals("containerResource")) {
          String container = str(src, "container");
          if (container.isEmpty()) {
            errs.add(FieldError.required(at + ".container", "must specify a container"));
          } else {
            for (String msg : MetaValidation.dns1123Label(container)) {
              errs.add(FieldError.invalid(at + ".container", Value.of(container), msg));
            }
          }
        }
        target(errs, target, at + ".target");
        if (!has(target, "averageUtilization") && !has(target, "averageValue")) {
          errs.add(FieldError.required(at + ".target.averageUtilization",
              "must set either a target raw value or a target utilization"));
        }
        if (has(target, "averageUtilization") && has(target, "averageValue")) {
          errs.add(FieldError.forbidden(at + ".target.averageValue",
              "may not set both a target raw value and a target utilization"));
        }
      }
    }
  }

  /** core's {@code ValidateContainerResourceName}. */
  private static void containerResourceName(List<FieldError> errs, String name, String at) {
    for (String msg : MetaValidation.qualifiedName(name)) {
      errs.add(FieldError.invalid(at, Value.of(name), msg));
    }
    if (!name.contains("/")) {
      if (!List.of("cpu", "memory", "ephemeral-storage").contains(name)
          && !name.startsWith("hugepages-")) {
        errs.add(FieldError.invalid(at, Value.of(name), "must be a standard resource for containers"));
      }
    } else if (!name.contains("kubernetes.io/") && (name.startsWith("requests.")
        || !MetaValidation.qualifiedName("requests." + name).isEmpty())) {
      errs.add(FieldError.invalid(at, Value.of(name),
          "doesn't follow extended resource name standard"));
    }
  }

  private static void target(List<FieldError> errs, MapValue t, String at) {
    String type = str(t, "type");
    if (type.isEmpty()) {
      errs.add(FieldError.required(at + ".type", "must specify a metric target type"));
    }
    if (!List.of("Utilization", "Value", "AverageValue").contains(type)) {
      errs.add(FieldError.invalid(at + ".type", Value.of(type),
          "must be either Utilization, Value, or AverageValue"));
    }
    for (String q : List.of("value", "averageValue")) {
      Value v = t == null ? null : t.getOrNull(q);
      if (KubeValidation.quantitySign(v).map(s -> s != 1).orElse(false)) {
        errs.add(FieldError.invalid(at + "." + q, v, "must be positive"));
      }
    }
    Long util = integer(t, "averageUtilization");
    if (util != null && util < 1) {
      errs.add(FieldError.invalid(at + ".averageUtilization", Value.of(util),
          "must be greater than 0"));
    }
  }

  private static void metricIdentifier(List<FieldError> errs, MapValue id, String at) {
    String name = str(id, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(at + ".name", "must specify a metric name"));
      return;
    }
    for (String msg : MetaValidation.pathSegment(name, false)) {
      errs.add(FieldError.invalid(at + ".name", Value.of(name), msg));
    }
  }

  private static void scalingRules(List<FieldError> errs, MapValue rules, String at) {
    if (rules == null) {
      return;
    }
    Long window = integer(rules, "stabilizationWindowSeconds");
    if (window != null && window < 0) {
      errs.add(FieldError.invalid(at + ".stabilizationWindowSeconds", Value.of(window),
          "must be greater than or equal to zero"));
    }
    if (window != null && window > MAX_STABILIZATION_SECONDS) {
      errs.add(FieldError.invalid(at + ".stabilizationWindowSeconds", Value.of(window),
          "must be less than or equal to " + MAX_STABILIZATION_SECONDS));
    }
    if (rules.getOrNull("selectPolicy") instanceof StringValue sp
        && !List.of("Disabled", "Max", "Min").contains(sp.value())) {
      errs.add(FieldError.notSupported(at + ".selectPolicy", sp, List.of("Disabled", "Max",
          "Min")));
    }
    List<Value> policies = list(rules, "policies");
    if (policies.isEmpty()) {
      errs.add(FieldError.required(at + ".policies", "must specify at least one Policy"));
    }
    for (int i = 0; i < policies.size(); i++) {
      String p = at + ".policies[" + i + "]";
      Value pol = policies.get(i);
      String type = str(pol, "type");
      if (!type.equals("Pods") && !type.equals("Percent")) {
        errs.add(FieldError.notSupported(p + ".type", Value.of(type), List.of("Percent", "Pods")));
      }
      long value = integer(pol, "value") == null ? 0 : integer(pol, "value");
      if (value <= 0) {
        errs.add(FieldError.invalid(p + ".value", Value.of(value), "must be greater than zero"));
      }
      long period = integer(pol, "periodSeconds") == null ? 0 : integer(pol, "periodSeconds");
      if (period <= 0) {
        errs.add(FieldError.invalid(p + ".periodSeconds", Value.of(period),
            "must be greater than zero"));
      }
      if (period > MAX_PERIOD_SECONDS) {
        errs.add(FieldError.invalid(p + ".periodSeconds", Value.of(period),
            "must be less than or equal to " + MAX_PERIOD_SECONDS));
      }
    }
  }
}
