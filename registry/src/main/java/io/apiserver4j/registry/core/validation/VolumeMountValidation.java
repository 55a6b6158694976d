/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.KubeValidation.index;
import static io.apiserver4j.apimachinery.validation.KubeValidation.items;
import static io.apiserver4j.apimachinery.validation.KubeValidation.str;

import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.registry.core.validation.ContainerValidation.ContainerContext;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's {@code ValidateVolumeMounts}: names of the pod's volumes, unique mount points, sub-paths,
 * propagation and recursive read-only, with kube's field paths. Stateless.
 */
final class VolumeMountValidation {
  private VolumeMountValidation() {}

  /** {@code ValidateVolumeMounts}. */
  static void validateMounts(MapValue container, String path, ContainerContext ctx,
      List<FieldError> errs) {
    List<MapValue> mounts = items(container.getOrNull("volumeMounts"));
    Set<String> points = new HashSet<>();
    for (int i = 0; i < mounts.size(); i++) {
      MapValue m = mounts.get(i);
      String at = index(path, i);
      String name = str(m, "name");
      if (name.isEmpty()) {
        errs.add(FieldError.required(at + ".name", ""));
      }
      if (!ctx.volumes().contains(name)) {
        errs.add(FieldError.notFound(at + ".name", Value.of(name)));
      }
      String mountPath = str(m, "mountPath");
      if (mountPath.isEmpty()) {
        errs.add(FieldError.required(at + ".mountPath", ""));
      }
      if (!points.add(mountPath)) {
        errs.add(FieldError.invalid(at + ".mountPath", Value.of(mountPath), "must be unique"));
      }
      mount(m, path, at, container, ctx.volumesByName(), errs);
    }
  }

  /**
   * The sub-path, propagation and recursive read-only rules of {@code ValidateVolumeMounts};
   * kube names the list, not the mount, in the paths of the first three.
   */
  static void mount(MapValue m, String listPath, String at, MapValue container,
      Map<String, MapValue> volumes, List<FieldError> errs) {
    String subPath = str(m, "subPath");
    String subPathExpr = str(m, "subPathExpr");
    MapValue volume = volumes.get(str(m, "name"));
    if (volume != null && volume.getOrNull("image") instanceof MapValue) {
      if (!subPath.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPath", Value.of(subPath),
            "not allowed in image volume sources"));
      }
      if (!subPathExpr.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPathExpr", Value.of(subPathExpr),
            "not allowed in image volume sources"));
      }
    }
    if (!subPath.isEmpty()) {
      VolumeValidation.localDescendingPath(subPath, listPath + ".subPath", errs);
    }
    if (!subPathExpr.isEmpty()) {
      if (!subPath.isEmpty()) {
        errs.add(FieldError.invalid(at + ".subPathExpr", Value.of(subPathExpr),
            "subPathExpr and subPath are mutually exclusive"));
      }
      VolumeValidation.localDescendingPath(subPathExpr, listPath + ".subPathExpr", errs);
    }
    String propagation = str(m, "mountPropagation");
    if (m.getOrNull("mountPropagation") instanceof StringValue) {
      List<String> supported = List.of("Bidirectional", "HostToContainer", "None");
      if (!supported.contains(propagation)) {
        errs.add(FieldError.notSupported(listPath + ".mountPropagation", Value.of(propagation),
            supported));
      }
      boolean privileged = Nested.bool(container, "securityContext", "privileged");
      if (propagation.equals("Bidirectional") && !privileged) {
        errs.add(FieldError.forbidden(listPath + ".mountPropagation",
            "Bidirectional mount propagation is available only to privileged containers"));
      }
    }
    if (m.getOrNull("recursiveReadOnly") instanceof StringValue rro) {
      String rroPath = listPath + ".recursiveReadOnly";
      switch (rro.value()) {
        case "Disabled" -> { }
        case "Enabled", "IfPossible" -> {
          if (!Nested.bool(m, "readOnly")) {
            errs.add(FieldError.forbidden(rroPath, "may only be specified when readOnly is true"));
          }
          if (!propagation.isEmpty() && !propagation.equals("None")) {
            errs.add(FieldError.forbidden(rroPath,
                "may only be specified when mountPropagation is None or not specified"));
          }
        }
        default -> errs.add(FieldError.notSupported(rroPath, rro,
            List.of("Disabled", "Enabled", "IfPossible")));
      }
    }
  }
}
