/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.IntegerValue;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.PodSpecValidation;
import io.apiserver4j.registry.core.validation.PodSpecValidation.SpecOf;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * kube's {@code ValidatePodCreate} and {@code ValidatePodUpdate} for Pods: the pod spec rules,
 * the images' whitespace, no ephemeral containers or node name (while gated) on create, and
 * the spec fields an update may change. Stateless.
 */
final class PodValidation {
  private static final String POD_UPDATE_FORBIDDEN = "pod updates may not change fields other"
      + " than `spec.containers[*].image`,`spec.initContainers[*].image`,"
      + "`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing"
      + " tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was"
      + " previously negative)";

  private PodValidation() {}

  /**
   * kube's {@code ValidatePodCreate} ({@code old} empty) or {@code ValidatePodUpdate}, with the
   * validation options of the server's feature gates.
   */
  static List<FieldError> validatePod(MapValue pod, Optional<MapValue> old,
      io.apiserver4j.kubeapi.FeatureGates gates) {
    List<FieldError> errs = new ArrayList<>();
    MapValue spec = Nested.mapOrNull(pod, "spec");
    PodSpecValidation.validatePodSpec(spec, "spec", SpecOf.POD,
        io.apiserver4j.registry.core.validation.PodValidationOptions.of(gates, spec,
            old.map(o -> Nested.mapOrNull(o, "spec")).orElse(null)), errs);
    // validateContainersOnlyForPod: templates may keep padded images, pods may not
    for (String list : List.of("containers", "initContainers")) {
      List<MapValue> cs = items(Nested.getOrNull(pod, "spec", list));
      for (int i = 0; i < cs.size(); i++) {
        String image = str(cs.get(i), "image");
        if (!image.strip().equals(image)) {
          errs.add(FieldError.invalid("spec." + list + "[" + i + "].image", Value.of(image),
              "must not have leading or trailing whitespace"));
        }
      }
    }
    if (old.isEmpty() && Nested.getOrNull(pod, "spec", "ephemeralContainers")
        instanceof ListValue l && !l.isEmpty()) {
      errs.add(FieldError.forbidden("spec.ephemeralContainers", "cannot be set on create"));
    }
    if (old.isEmpty() && !str(pod, "spec", "nodeName").isEmpty()
        && Nested.getOrNull(pod, "spec", "schedulingGates") instanceof ListValue g
        && !g.isEmpty()) {
      errs.add(FieldError.forbidden("spec.nodeName",
          "cannot be set until all schedulingGates have been cleared"));
    }
    old.ifPresent(o -> validatePodSpecUpdate(Nested.map(pod, "spec"), Nested.map(o, "spec"),
        errs));
    return errs;
  }

  /**
   * {@code ValidatePodUpdate}'s spec rules: only images, a shorter active deadline, added
   * tolerations and a negative grace period raised to 1 may change. Ephemeral containers are
   * left to their own subresource.
   */
  private static void validatePodSpecUpdate(MapValue spec, MapValue old, List<FieldError> errs) {
    // ValidateContainerUpdates: the lists keep their length
    for (String list : List.of("containers", "initContainers")) {
      if (items(spec.getOrNull(list)).size() != items(old.getOrNull(list)).size()) {
        errs.add(FieldError.forbidden("spec." + list,
            "pod updates may not add or remove containers"));
        return;
      }
    }
    Value ads = spec.getOrNull("activeDeadlineSeconds");
    Value oldAds = old.getOrNull("activeDeadlineSeconds");
    if (ads instanceof IntegerValue n) {
      if (n.value() < 0 || n.value() > Integer.MAX_VALUE) {
        errs.add(FieldError.invalid("spec.activeDeadlineSeconds", n,
            "must be between 0 and 2147483647, inclusive"));
        return;
      }
      if (oldAds instanceof IntegerValue o && o.value() < n.value()) {
        errs.add(FieldError.invalid("spec.activeDeadlineSeconds", n,
            "must be less than or equal to previous value"));
        return;
      }
    } else if (oldAds instanceof IntegerValue) {
      errs.add(FieldError.invalid("spec.activeDeadlineSeconds", Value.nullValue(),
          "must not update from a positive integer to nil value"));
    }
    onlyAddedTolerations(items(spec.getOrNull("tolerations")),
        items(old.getOrNull("tolerations")), errs);
    onlyDeletedSchedulingGates(items(spec.getOrNull("schedulingGates")),
        items(old.getOrNull("schedulingGates")), errs);
    MapValue munged = spec;
    for (String list : List.of("containers", "initContainers")) {
      List<MapValue> now = items(spec.getOrNull(list));
      List<MapValue> before = items(old.getOrNull(list));
      if (now.size() == before.size()) {
        ListValue.Builder b = ListValue.builder(now.size());
        for (int i = 0; i < now.size(); i++) {
          Value img = before.get(i).getOrNull("image");
          b.add(img == null ? now.get(i).without("image") : now.get(i).with("image", img));
        }
        munged = munged.with(list, b.build());
      }
    }
    munged = copyField(munged, old, "activeDeadlineSeconds");
    munged = copyField(munged, old, "tolerations");
    munged = copyField(munged, old, "ephemeralContainers");
    munged = copyField(munged, old, "schedulingGates");
    if (!items(old.getOrNull("schedulingGates")).isEmpty()) {
      // a gated pod may gain node selector labels, nothing else
      MapValue now = Nested.map(spec, "nodeSelector");
      MapValue before = Nested.map(old, "nodeSelector");
      for (int i = 0; i < before.size(); i++) {
        if (!before.valueAt(i).equals(now.getOrNull(before.keyAt(i)))) {
          errs.add(FieldError.invalid("spec.nodeSelector", now, "only additions to"
              + " spec.nodeSelector are allowed (no mutations or deletions)"));
          break;
        }
      }
      munged = copyField(munged, old, "nodeSelector");
    }
    if (old.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue g && g.value() < 0
        && spec.getOrNull("terminationGracePeriodSeconds") instanceof IntegerValue n
        && n.value() == 1) {
      munged = copyField(munged, old, "terminationGracePeriodSeconds");
    }
    munged = withoutEmpty(munged);
    MapValue before = withoutEmpty(old);
    if (!munged.equals(before)) {
      errs.add(FieldError.forbidden("spec", POD_UPDATE_FORBIDDEN + "\n" + diff(munged, before)));
    }
  }

  /** {@code validateOnlyAddedTolerations}: existing ones stay but for their seconds. */
  private static void onlyAddedTolerations(List<MapValue> now, List<MapValue> old,
      List<FieldError> errs) {
    for (MapValue o : old) {
      boolean found = false;
      for (MapValue n : now) {
        MapValue clone = copyField(o, n, "tolerationSeconds");
        if (withoutEmpty(clone).equals(withoutEmpty(n))) {
          found = true;
          break;
        }
      }
      if (!found) {
        errs.add(FieldError.forbidden("spec.tolerations",
            "existing toleration can not be modified except its tolerationSeconds"));
        return;
      }
    }
  }

  /** {@code validateOnlyDeletedSchedulingGates}. */
  private static void onlyDeletedSchedulingGates(List<MapValue> now, List<MapValue> old,
      List<FieldError> errs) {
    Set<String> before = new HashSet<>();
    old.forEach(g -> before.add(str(g, "name")));
    Map<String, Integer> added = new LinkedHashMap<>();
    for (int i = 0; i < now.size(); i++) {
      added.put(str(now.get(i), "name"), i);
    }
    before.forEach(added::remove);
    added.forEach((gate, i) -> errs.add(FieldError.forbidden("spec.schedulingGates[" + i
        + "].name", "only deletion is allowed, but found new scheduling gate '" + gate + "'")));
  }

  private static MapValue copyField(MapValue into, MapValue from, String key) {
    Value v = from.getOrNull(key);
    return v == null ? into.without(key) : into.with(key, v);
  }

  // Go's zero values and absent fields compare equal in the typed struct.
  private static MapValue withoutEmpty(MapValue m) {
    MapValue r = m;
    for (int i = 0; i < m.size(); i++) {
      Value v = m.valueAt(i);
      if (v.isNull() || (v instanceof ListValue l && l.isEmpty())) {
        r = r.without(m.keyAt(i));
      }
    }
    return r;
  }

  // The changed top-level fields of the spec, Go's cmp.Diff cannot be reproduced exactly.
  private static String diff(MapValue now, MapValue old) {
    Map<String, String> lines = new LinkedHashMap<>();
    Set<String> keys = new java.util.TreeSet<>();
    for (int i = 0; i < now.size(); i++) {
      keys.add(now.keyAt(i));
    }
    for (int i = 0; i < old.size(); i++) {
      keys.add(old.keyAt(i));
    }
    for (String k : keys) {
      if (!Objects.equals(now.getOrNull(k), old.getOrNull(k))) {
        lines.put(k, "- " + k + ": " + old.getOrNull(k) + "\n+ " + k + ": " + now.getOrNull(k));
      }
    }
    return String.join("\n", lines.values());
  }
}
