/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.apimachinery.validation.KubeValidation;
import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's scheduling rules of a pod spec: {@code ValidateTolerations},
 * {@code validateTopologySpreadConstraints}, {@code validateReadinessGates} and
 * {@code validateSchedulingGates}. Stateless.
 */
final class SchedulingValidation {
  private static final String NOT_POSITIVE = "must be greater than zero";

  private SchedulingValidation() {}

  /** {@code ValidateTolerations}: keys, operators and their values, effects. */
  static void validateTolerations(List<MapValue> tolerations, String path,
      List<FieldError> errs) {
    for (int i = 0; i < tolerations.size(); i++) {
      MapValue t = tolerations.get(i);
      String at = index(path, i);
      String key = str(t, "key");
      String op = str(t, "operator");
      String effect = str(t, "effect");
      if (!key.isEmpty()) {
        for (String msg : MetaValidation.qualifiedName(key)) {
          errs.add(FieldError.invalid(at + ".key", Value.of(key), msg));
        }
      }
      if (key.isEmpty() && !op.equals("Exists")) {
        errs.add(FieldError.invalid(at + ".operator", Value.of(op), "operator must be Exists"
            + " when `key` is empty, which means \"match all values and all keys\""));
      }
      if (t.getOrNull("tolerationSeconds") instanceof IntegerValue && !effect.equals("NoExecute")) {
        errs.add(FieldError.invalid(at + ".effect", Value.of(effect),
            "effect must be 'NoExecute' when `tolerationSeconds` is set"));
      }
      switch (op) {
        case "Equal", "" -> {
          List<String> msgs = MetaValidation.labelValue(str(t, "value"));
          if (!msgs.isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", Value.of(str(t, "value")),
                String.join(";", msgs)));
          }
        }
        case "Exists" -> {
          if (!str(t, "value").isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", Value.of(str(t, "value")),
                "value must be empty when `operator` is 'Exists'"));
          }
        }
        default -> errs.add(FieldError.notSupported(at + ".operator", Value.of(op),
            List.of("Equal", "Exists")));
      }
      if (!effect.isEmpty() && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute")
          .contains(effect)) {
        errs.add(FieldError.notSupported(at + ".effect", Value.of(effect),
            List.of("NoSchedule", "PreferNoSchedule", "NoExecute")));
      }
    }
  }

  /** {@code validateTopologySpreadConstraints}. */
  static void topologySpread(List<MapValue> constraints, String path, List<FieldError> errs) {
    for (int i = 0; i < constraints.size(); i++) {
      MapValue c = constraints.get(i);
      String at = index(path, i);
      long maxSkew = c.getOrNull("maxSkew") instanceof IntegerValue m ? m.value() : 0;
      if (maxSkew <= 0) {
        errs.add(FieldError.invalid(at + ".maxSkew", Value.of(maxSkew), NOT_POSITIVE));
      }
      String key = str(c, "topologyKey");
      if (key.isEmpty()) {
        errs.add(FieldError.required(at + ".topologyKey", "can not be empty"));
      }
      String when = str(c, "whenUnsatisfiable");
      if (!when.equals("DoNotSchedule") && !when.equals("ScheduleAnyway")) {
        errs.add(FieldError.notSupported(at + ".whenUnsatisfiable", Value.of(when),
            List.of("DoNotSchedule", "ScheduleAnyway")));
      }
      for (int j = i + 1; j < constraints.size(); j++) {
        if (key.equals(str(constraints.get(j), "topologyKey"))
            && when.equals(str(constraints.get(j), "whenUnsatisfiable"))) {
          errs.add(FieldError.duplicate(at + ".{topologyKey, whenUnsatisfiable}",
              Value.of("{" + key + ", " + when + "}")));
          break;
        }
      }
      if (c.getOrNull("minDomains") instanceof IntegerValue md) {
        if (md.value() <= 0) {
          errs.add(FieldError.invalid(at + ".minDomains", md, NOT_POSITIVE));
        }
        if (!when.equals("DoNotSchedule")) {
          errs.add(FieldError.invalid(at + ".minDomains", md,
              "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + when));
        }
      }
      for (String policy : List.of("nodeAffinityPolicy", "nodeTaintsPolicy")) {
        KubeValidation.optionalEnum(c, policy, at + "." + policy, List.of("Honor", "Ignore"),
            errs);
      }
      List<String> keys = Meta.stringList(c.getOrNull("matchLabelKeys"));
      if (!keys.isEmpty() && !(c.getOrNull("labelSelector") instanceof MapValue)) {
        errs.add(FieldError.forbidden(at + ".matchLabelKeys",
            "must not be specified when labelSelector is not set"));
      }
      for (int k = 0; k < keys.size(); k++) {
        for (String msg : MetaValidation.qualifiedName(keys.get(k))) {
          errs.add(FieldError.invalid(index(at + ".matchLabelKeys", k), Value.of(keys.get(k)),
              msg));
        }
      }
      KubeValidation.labelSelector(c.getOrNull("labelSelector"), at + ".labelSelector", errs);
    }
  }

  /** {@code validateReadinessGates} and {@code validateSchedulingGates}. */
  static void gates(MapValue spec, String path, List<FieldError> errs) {
    List<MapValue> readiness = items(spec.getOrNull("readinessGates"));
    for (int i = 0; i < readiness.size(); i++) {
      String type = str(readiness.get(i), "conditionType");
      for (String msg : MetaValidation.qualifiedName(type)) {
        errs.add(FieldError.invalid(index(path + ".readinessGates", i) + ".conditionType",
            Value.of(type), msg));
      }
    }
    List<MapValue> scheduling = items(spec.getOrNull("schedulingGates"));
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < scheduling.size(); i++) {
      String name = str(scheduling.get(i), "name");
      String at = index(path + ".schedulingGates", i);
      for (String msg : MetaValidation.qualifiedName(name)) {
        errs.add(FieldError.invalid(at, Value.of(name), msg));
      }
      if (!seen.add(name)) {
        errs.add(FieldError.duplicate(at, Value.of(name)));
      }
    }
  }
}
