/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver.internal;

import static io.apiserver4j.apiserver.internal.GroupValidation.str;

import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.FieldError;
import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * node.k8s.io/v1 RuntimeClass, as kube's {@code ValidateRuntimeClass} (handler, overhead,
 * scheduling) and {@code ValidateRuntimeClassUpdate} (handler immutable).
 */
final class NodeStrategies {
  private static final List<String> EFFECTS = List.of("NoSchedule", "PreferNoSchedule",
      "NoExecute");

  private NodeStrategies() {}

  static Map<GroupVersionKind, ResourceStrategy> strategies() {
    Map<GroupVersionKind, ResourceStrategy> out = new LinkedHashMap<>();
    out.put(new GroupVersionKind("node.k8s.io", "v1", "RuntimeClass"), ResourceStrategy.builder()
        .validator(NodeStrategies::validate)
        .build());
    return out;
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
      if (scheduling.getOrNull("tolerations") instanceof ListValue tolerations) {
        tolerations(errs, tolerations, "scheduling.tolerations");
      }
    }
    old.ifPresent(o -> KubeValidation.immutable(Value.of(handler),
        Value.of(str(o, "handler")), "handler", errs));
    return errs;
  }

  /** core's {@code ValidateTolerations}. */
  static void tolerations(List<FieldError> errs, ListValue tolerations, String path) {
    for (int i = 0; i < tolerations.size(); i++) {
      String at = path + "[" + i + "]";
      Value t = tolerations.get(i);
      String key = str(t, "key");
      String op = str(t, "operator");
      String effect = str(t, "effect");
      String value = str(t, "value");
      if (!key.isEmpty()) {
        for (String msg : MetaValidation.qualifiedName(key)) {
          errs.add(FieldError.invalid(at + ".key", Value.of(key), msg));
        }
      }
      if (key.isEmpty() && !op.equals("Exists")) {
        errs.add(FieldError.invalid(at + ".operator", Value.of(op), "operator must be Exists"
            + " when `key` is empty, which means \"match all values and all keys\""));
      }
      if (GroupValidation.has(t, "tolerationSeconds") && !effect.equals("NoExecute")) {
        errs.add(FieldError.invalid(at + ".effect", Value.of(effect),
            "effect must be 'NoExecute' when `tolerationSeconds` is set"));
      }
      switch (op) {
        case "Equal", "" -> {
          List<String> msgs = MetaValidation.labelValue(value);
          if (!msgs.isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", Value.of(value), String.join(";", msgs)));
          }
        }
        case "Exists" -> {
          if (!value.isEmpty()) {
            errs.add(FieldError.invalid(at + ".operator", t,
                "value must be empty when `operator` is 'Exists'"));
          }
        }
        default -> errs.add(FieldError.notSupported(at + ".operator", Value.of(op),
            List.of("Equal", "Exists")));
      }
      if (!effect.isEmpty() && !EFFECTS.contains(effect)) {
        errs.add(FieldError.notSupported(at + ".effect", Value.of(effect), EFFECTS));
      }
    }
  }
}
