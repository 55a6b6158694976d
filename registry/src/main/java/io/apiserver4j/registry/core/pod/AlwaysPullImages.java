/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.pod;

import io.apiserver4j.admission.AdmissionAttributes;
import io.apiserver4j.admission.AdmissionErrors;
import io.apiserver4j.admission.MutatingPlugin;
import io.apiserver4j.admission.Operation;
import io.apiserver4j.admission.SideEffects;
import io.apiserver4j.admission.ValidatingPlugin;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.errors.ForbiddenException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.registry.internal.Admissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's {@code AlwaysPullImages} plugin ({@code plugin/pkg/admission/alwayspullimages},
 * off by default): every init, regular and ephemeral container of a created Pod, or of an updated
 * Pod that brings an image its old version did not have, gets {@code imagePullPolicy: Always};
 * the validating phase refuses such a Pod whose containers do not all pull always (e.g. after a
 * webhook changed it) with kube's aggregate of 403 denials ({@code pods "p" is forbidden:
 * spec.containers[0].imagePullPolicy: Unsupported value: "IfNotPresent": supported values:
 * "Always"}), which kube-apiserver answers as a 500 without reason, as here. Side effects: none.
 * Thread-safe.
 */
public final class AlwaysPullImages implements MutatingPlugin, ValidatingPlugin {
  /** The plugin's name in kube-apiserver. */
  public static final String NAME = "AlwaysPullImages";
  private static final List<String> CONTAINER_LISTS = List.of("initContainers", "containers",
      "ephemeralContainers");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SideEffects sideEffects() {
    return SideEffects.NONE;
  }

  @Override
  public boolean handles(AdmissionAttributes a) {
    return Admissions.isMain(a, "", "pods", Operation.CREATE, Operation.UPDATE);
  }

  @Override
  public MapValue admit(AdmissionAttributes a, MapValue pod) {
    if (updateWithNoNewImages(a, pod)) {
      return pod;
    }
    MapValue spec = Nested.map(pod, "spec");
    for (String list : CONTAINER_LISTS) {
      if (!(spec.getOrNull(list) instanceof ListValue l)) {
        continue;
      }
      List<Value> out = new ArrayList<>();
      for (Value c : l.items()) {
        out.add(c instanceof MapValue m ? m.with("imagePullPolicy", Value.of("Always")) : c);
      }
      spec = spec.with(list, ListValue.of(out));
    }
    MapValue out = pod.with("spec", spec);
    return out.equals(pod) ? pod : out;
  }

  @Override
  public void validate(AdmissionAttributes a) {
    MapValue pod = a.object().orElse(null);
    if (pod == null || updateWithNoNewImages(a, pod)) {
      return;
    }
    List<ForbiddenException> errs = new ArrayList<>();
    for (String list : CONTAINER_LISTS) {
      List<Value> containers = Nested.list(pod, "spec", list);
      for (int i = 0; i < containers.size(); i++) {
        String policy = Nested.str(containers.get(i), "imagePullPolicy");
        if (!policy.equals("Always")) {
          errs.add(AdmissionErrors.forbidden(a, FieldError.notSupported("spec." + list + "["
              + i + "].imagePullPolicy", Value.of(policy), List.of("Always")).toString()));
        }
      }
    }
    if (!errs.isEmpty()) {
      // kube returns the denials as one aggregate error, which is no API status: kube-apiserver
      // answers a 500 without reason, "<denial>" alone or "[<first>, <second>, ...]"
      List<String> messages = new ArrayList<>();
      errs.forEach(e -> messages.add(e.status().message()));
      String message = messages.size() == 1 ? messages.get(0)
          : "[" + String.join(", ", messages) + "]";
      throw StatusException.of(Status.failure(StatusReason.UNKNOWN, message));
    }
  }

  /** kube's {@code isUpdateWithNoNewImages}: every image of the update was already there. */
  private static boolean updateWithNoNewImages(AdmissionAttributes a, MapValue pod) {
    if (a.operation() != Operation.UPDATE || a.oldObject().isEmpty()) {
      return false;
    }
    Set<String> old = new HashSet<>();
    for (String list : CONTAINER_LISTS) {
      for (Value c : Nested.list(a.oldObject().get(), "spec", list)) {
        old.add(Nested.str(c, "image"));
      }
    }
    for (String list : CONTAINER_LISTS) {
      for (Value c : Nested.list(pod, "spec", list)) {
        if (!old.contains(Nested.str(c, "image"))) {
          return false;
        }
      }
    }
    return true;
  }
}
