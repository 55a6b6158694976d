/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * kube's {@code validateOS} and the linux or windows restrictions of the pod's and its
 * containers' security contexts that follow it. Stateless.
 */
final class OsValidation {
  private OsValidation() {}

  /** {@code validateOS} and the linux or windows restrictions that follow it. */
  static void os(MapValue spec, String path, List<FieldError> errs) {
    if (!(spec.getOrNull("os") instanceof MapValue os)) {
      return;
    }
    String name = str(os, "name");
    if (name.isEmpty()) {
      errs.add(FieldError.required(path + ".os.name", "cannot be empty"));
      return;
    }
    if (!name.equals("linux") && !name.equals("windows")) {
      errs.add(FieldError.notSupported(path + ".os", Value.of(name),
          List.of("linux", "windows")));
      return;
    }
    MapValue sc = Nested.map(spec, "securityContext");
    if (name.equals("linux")) {
      if (sc.getOrNull("windowsOptions") instanceof MapValue) {
        errs.add(FieldError.forbidden(path + ".securityContext.windowsOptions",
            "windows options cannot be set for a linux pod"));
      }
      eachContainer(spec, path, (c, at) -> {
        if (Nested.getOrNull(c, "securityContext", "windowsOptions") instanceof MapValue) {
          errs.add(FieldError.forbidden(at + ".securityContext.windowsOptions",
              "windows options cannot be set for a linux pod"));
        }
      });
      return;
    }
    String windows = "cannot be set for a windows pod";
    for (String f : List.of("appArmorProfile", "seLinuxOptions")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    if (Nested.has(spec, "hostUsers")) {
      errs.add(FieldError.forbidden(path + ".hostUsers", windows));
    }
    for (String f : List.of("hostPID", "hostIPC")) {
      if (Nested.bool(spec, f)) {
        errs.add(FieldError.forbidden(path + "." + f, windows));
      }
    }
    for (String f : List.of("seccompProfile", "fsGroup", "fsGroupChangePolicy")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    if (sc.getOrNull("sysctls") instanceof ListValue l && !l.isEmpty()) {
      errs.add(FieldError.forbidden(path + ".securityContext.sysctls", windows));
    }
    if (Nested.has(spec, "shareProcessNamespace")) {
      errs.add(FieldError.forbidden(path + ".shareProcessNamespace", windows));
    }
    for (String f : List.of("runAsUser", "runAsGroup", "supplementalGroups",
        "supplementalGroupsPolicy", "seLinuxChangePolicy")) {
      if (Nested.has(sc, f)) {
        errs.add(FieldError.forbidden(path + ".securityContext." + f, windows));
      }
    }
    eachContainer(spec, path, (c, at) -> {
      if (!(c.getOrNull("securityContext") instanceof MapValue csc)) {
        return;
      }
      for (String f : List.of("appArmorProfile", "seLinuxOptions", "seccompProfile",
          "capabilities", "readOnlyRootFilesystem", "privileged", "allowPrivilegeEscalation",
          "procMount", "runAsUser", "runAsGroup")) {
        if (Nested.has(csc, f)) {
          errs.add(FieldError.forbidden(at + ".securityContext." + f, windows));
        }
      }
    });
  }

  // podshelper.VisitContainersWithPath: init, regular, then ephemeral containers
  private static void eachContainer(MapValue spec, String path,
      java.util.function.BiConsumer<MapValue, String> visit) {
    for (String list : List.of("initContainers", "containers", "ephemeralContainers")) {
      List<MapValue> cs = items(spec.getOrNull(list));
      for (int i = 0; i < cs.size(); i++) {
        visit.accept(cs.get(i), index(path + "." + list, i));
      }
    }
  }
}
