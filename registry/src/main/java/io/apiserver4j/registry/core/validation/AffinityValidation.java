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
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's {@code validateAffinity}: node affinity with its node selectors, pod affinity and
 * anti-affinity terms. Stateless.
 */
final class AffinityValidation {
  private AffinityValidation() {}

  /** {@code validateAffinity}. */
  static void affinity(Value affinity, String path, List<FieldError> errs) {
    if (!(affinity instanceof MapValue a)) {
      return;
    }
    if (a.getOrNull("nodeAffinity") instanceof MapValue na) {
      String at = path + ".nodeAffinity";
      if (na.getOrNull("requiredDuringSchedulingIgnoredDuringExecution") instanceof MapValue r) {
        nodeSelector(r, at + ".requiredDuringSchedulingIgnoredDuringExecution", errs);
      }
      List<MapValue> preferred =
          items(na.getOrNull("preferredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < preferred.size(); i++) {
        String p = index(at + ".preferredDuringSchedulingIgnoredDuringExecution", i);
        weight(preferred.get(i), p, errs);
        nodeSelectorTerm(Nested.map(preferred.get(i), "preference"), p + ".preference", true,
            errs);
      }
    }
    for (String kind : List.of("podAffinity", "podAntiAffinity")) {
      if (!(a.getOrNull(kind) instanceof MapValue pa)) {
        continue;
      }
      String at = path + "." + kind;
      List<MapValue> required =
          items(pa.getOrNull("requiredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < required.size(); i++) {
        podAffinityTerm(required.get(i),
            index(at + ".requiredDuringSchedulingIgnoredDuringExecution", i), errs);
      }
      List<MapValue> preferred =
          items(pa.getOrNull("preferredDuringSchedulingIgnoredDuringExecution"));
      for (int i = 0; i < preferred.size(); i++) {
        String p = index(at + ".preferredDuringSchedulingIgnoredDuringExecution", i);
        weight(preferred.get(i), p, errs);
        podAffinityTerm(Nested.map(preferred.get(i), "podAffinityTerm"), p + ".podAffinityTerm",
            errs);
      }
    }
  }

  private static void weight(MapValue term, String path, List<FieldError> errs) {
    long w = term.getOrNull("weight") instanceof IntegerValue i ? i.value() : 0;
    if (w <= 0 || w > 100) {
      errs.add(FieldError.invalid(path + ".weight", Value.of(w), "must be in the range 1-100"));
    }
  }

  /** {@code ValidateNodeSelector}. */
  static void nodeSelector(MapValue selector, String path, List<FieldError> errs) {
    List<MapValue> terms = items(selector.getOrNull("nodeSelectorTerms"));
    if (terms.isEmpty()) {
      errs.add(FieldError.required(path + ".nodeSelectorTerms",
          "must have at least one node selector term"));
      return;
    }
    for (int i = 0; i < terms.size(); i++) {
      nodeSelectorTerm(terms.get(i), index(path + ".nodeSelectorTerms", i), false, errs);
    }
  }

  private static void nodeSelectorTerm(MapValue term, String path, boolean allowInvalidValues,
      List<FieldError> errs) {
    List<MapValue> exprs = items(term.getOrNull("matchExpressions"));
    for (int j = 0; j < exprs.size(); j++) {
      nodeSelectorRequirement(exprs.get(j), index(path + ".matchExpressions", j),
          allowInvalidValues, errs);
    }
    List<MapValue> fields = items(term.getOrNull("matchFields"));
    for (int j = 0; j < fields.size(); j++) {
      MapValue req = fields.get(j);
      String at = index(path + ".matchFields", j);
      List<String> values = Meta.stringList(req.getOrNull("values"));
      String op = str(req, "operator");
      if (op.equals("In") || op.equals("NotIn")) {
        if (values.size() != 1) {
          errs.add(FieldError.required(at + ".values", "must be only one value when `operator`"
              + " is 'In' or 'NotIn' for node field selector"));
        }
      } else {
        errs.add(FieldError.invalid(at + ".operator", Value.of(op),
            "not a valid selector operator"));
      }
      String key = str(req, "key");
      if (!key.equals("metadata.name")) {
        errs.add(FieldError.invalid(at + ".key", Value.of(key),
            "not a valid field selector key"));
      } else {
        for (int k = 0; k < values.size(); k++) {
          for (String msg : MetaValidation.dns1123Subdomain(values.get(k))) {
            errs.add(FieldError.invalid(index(at + ".values", k), Value.of(values.get(k)), msg));
          }
        }
      }
    }
  }

  private static void nodeSelectorRequirement(MapValue req, String path,
      boolean allowInvalidValues, List<FieldError> errs) {
    List<String> values = Meta.stringList(req.getOrNull("values"));
    String op = str(req, "operator");
    switch (op) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          errs.add(FieldError.required(path + ".values",
              "must be specified when `operator` is 'In' or 'NotIn'"));
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          errs.add(FieldError.forbidden(path + ".values",
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        }
      }
      case "Gt", "Lt" -> {
        if (values.size() != 1) {
          errs.add(FieldError.required(path + ".values",
              "must be specified single value when `operator` is 'Lt' or 'Gt'"));
        }
      }
      default -> errs.add(FieldError.invalid(path + ".operator", Value.of(op),
          "not a valid selector operator"));
    }
    String key = str(req, "key");
    for (String msg : MetaValidation.qualifiedName(key)) {
      errs.add(FieldError.invalid(path + ".key", Value.of(key), msg));
    }
    for (int i = 0; i < values.size() && !allowInvalidValues; i++) {
      for (String msg : MetaValidation.labelValue(values.get(i))) {
        errs.add(FieldError.invalid(index(path + ".values", i), Value.of(values.get(i)), msg));
      }
    }
  }

  private static void podAffinityTerm(MapValue term, String path, List<FieldError> errs) {
    KubeValidation.labelSelector(term.getOrNull("labelSelector"), path + ".labelSelector", errs);
    KubeValidation.labelSelector(term.getOrNull("namespaceSelector"),
        path + ".namespaceSelector", errs);
    for (String ns : Meta.stringList(term.getOrNull("namespaces"))) {
      // kube names the list "namespace"
      for (String msg : MetaValidation.dns1123Label(ns)) {
        errs.add(FieldError.invalid(path + ".namespace", Value.of(ns), msg));
      }
    }
    boolean hasSelector = term.getOrNull("labelSelector") instanceof MapValue;
    for (String keys : List.of("matchLabelKeys", "mismatchLabelKeys")) {
      List<String> list = Meta.stringList(term.getOrNull(keys));
      if (list.isEmpty()) {
        continue;
      }
      if (!hasSelector) {
        errs.add(FieldError.forbidden(path + "." + keys,
            "must not be specified when labelSelector is not set"));
        continue;
      }
      for (int i = 0; i < list.size(); i++) {
        for (String msg : MetaValidation.qualifiedName(list.get(i))) {
          errs.add(FieldError.invalid(index(path + "." + keys, i), Value.of(list.get(i)), msg));
        }
      }
    }
    Set<String> mismatch = new HashSet<>(Meta.stringList(term.getOrNull("mismatchLabelKeys")));
    List<String> match = Meta.stringList(term.getOrNull("matchLabelKeys"));
    for (int i = 0; i < match.size(); i++) {
      if (mismatch.contains(match.get(i))) {
        errs.add(FieldError.invalid(index(path + ".matchLabelKeys", i), Value.of(match.get(i)),
            "exists in both matchLabelKeys and mismatchLabelKeys"));
      }
    }
    String topologyKey = str(term, "topologyKey");
    if (topologyKey.isEmpty()) {
      errs.add(FieldError.required(path + ".topologyKey", "can not be empty"));
    }
    for (String msg : MetaValidation.qualifiedName(topologyKey)) {
      errs.add(FieldError.invalid(path + ".topologyKey", Value.of(topologyKey), msg));
    }
  }
}
