/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.validation;

import static io.apiserver4j.apimachinery.validation.GroupRules.str;
import static io.apiserver4j.apimachinery.validation.GroupRules.strings;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * The spec rules PersistentVolumes and PersistentVolumeClaims share (kube's
 * pkg/apis/core/validation): access modes, volume mode and storage class name, with kube's field
 * paths and messages. Stateless.
 */
public final class PersistentVolumeRules {
  private static final List<String> ACCESS_MODES =
      List.of("ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod");
  private static final List<String> VOLUME_MODES = List.of("Block", "Filesystem");

  private PersistentVolumeRules() {}

  /**
   * Adds the errors of {@code spec.accessModes} at {@code path}: at least one (the required
   * error carrying {@code requiredDetail}), each supported, ReadWriteOncePod alone.
   */
  public static void accessModes(List<FieldError> errs, MapValue spec, String path,
      String requiredDetail) {
    List<String> modes = strings(spec, "accessModes");
    if (modes.isEmpty()) {
      errs.add(FieldError.required(path + ".accessModes", requiredDetail));
    }
    boolean rwop = false;
    boolean other = false;
    for (String mode : modes) {
      if (!ACCESS_MODES.contains(mode)) {
        errs.add(FieldError.notSupported(path + ".accessModes", Value.of(mode), ACCESS_MODES));
      }
      rwop |= mode.equals("ReadWriteOncePod");
      other |= !mode.equals("ReadWriteOncePod");
    }
    if (rwop && other) {
      errs.add(FieldError.forbidden(path + ".accessModes",
          "may not use ReadWriteOncePod with other access modes"));
    }
  }

  /** Adds an error when {@code spec.volumeMode} is set to an unsupported mode. */
  public static void volumeMode(List<FieldError> errs, MapValue spec, String path) {
    if (spec.getOrNull("volumeMode") instanceof StringValue m
        && !VOLUME_MODES.contains(m.value())) {
      errs.add(FieldError.notSupported(path + ".volumeMode", m, VOLUME_MODES));
    }
  }

  /** Adds the errors of a set {@code spec.storageClassName}: a DNS subdomain. */
  public static void storageClassName(List<FieldError> errs, MapValue spec, String path) {
    String name = str(spec, "storageClassName");
    if (!name.isEmpty()) {
      for (String msg : MetaValidation.dns1123Subdomain(name)) {
        errs.add(FieldError.invalid(path + ".storageClassName", Value.of(name), msg));
      }
    }
  }
}
