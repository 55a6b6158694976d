/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.storage.validation;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The rules of kube's pkg/apis/storage/validation/validation.go that several storage.k8s.io
 * kinds share: provisioner (driver) names and class parameters (StorageClass,
 * VolumeAttributesClass), and CSI driver names (CSINode, VolumeAttachment). Each method appends
 * kube's field errors, in kube's order. Stateless and thread-safe.
 */
public final class StorageValidation {
  private StorageValidation() {}

  private static final int MAX_PARAMETERS = 512;
  private static final int MAX_PARAMETER_BYTES = 256 * 1024;

  /**
   * kube's {@code validateProvisioner} (a StorageClass's provisioner, a VolumeAttributesClass's
   * driver name): required, and a qualified name once lower-cased.
   */
  public static void provisioner(List<FieldError> errs, String path, String provisioner) {
    if (provisioner.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    } else {
      String lower = provisioner.toLowerCase(Locale.ROOT);
      for (String msg : MetaValidation.qualifiedName(lower)) {
        errs.add(FieldError.invalid(path, Value.of(lower), msg));
      }
    }
  }

  /**
   * kube's {@code validateParameters}: at most 512 entries of at most 256 KiB together,
   * non-empty keys, and at least one entry unless {@code allowEmpty}.
   */
  public static void parameters(List<FieldError> errs, MapValue params, boolean allowEmpty) {
    if (params.size() > MAX_PARAMETERS) {
      errs.add(FieldError.tooLong("parameters", MAX_PARAMETERS));
      return;
    }
    long total = 0;
    for (int i = 0; i < params.size(); i++) {
      String k = params.keyAt(i);
      if (k.isEmpty()) {
        errs.add(FieldError.invalid("parameters", Value.of(k), "field can not be empty."));
      }
      String v = params.valueAt(i) instanceof StringValue s ? s.value() : "";
      total += k.getBytes(StandardCharsets.UTF_8).length
          + v.getBytes(StandardCharsets.UTF_8).length;
    }
    if (total > MAX_PARAMETER_BYTES) {
      errs.add(FieldError.tooLong("parameters", MAX_PARAMETER_BYTES));
    }
    if (!allowEmpty && params.isEmpty()) {
      errs.add(FieldError.required("parameters", "must contain at least one key/value pair"));
    }
  }

  /** kube's {@code ValidateCSIDriverName} (core): a lower-cased DNS subdomain of 63 bytes. */
  public static void csiDriverName(List<FieldError> errs, String path, String name) {
    if (name.isEmpty()) {
      errs.add(FieldError.required(path, ""));
    }
    if (name.length() > 63) {
      errs.add(FieldError.tooLong(path, 63));
    }
    for (String msg : MetaValidation.dns1123Subdomain(name.toLowerCase(Locale.ROOT))) {
      errs.add(FieldError.invalid(path, Value.of(name), msg));
    }
  }
}
