/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.networking.validation;

import static io.apiserver4j.apimachinery.validation.GroupValidation.has;
import static io.apiserver4j.apimachinery.validation.GroupValidation.str;

import io.apiserver4j.apimachinery.validation.MetaValidation;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * What several networking.k8s.io kinds' validation shares, as kube's
 * {@code pkg/apis/networking/validation}: references named by path segments and IP literal
 * forms. Stateless and thread-safe.
 */
public final class NetworkingValidation {
  private NetworkingValidation() {}

  /** A required field {@code key} of {@code ref} that must be a valid path segment name. */
  public static void pathSegmentRequired(List<FieldError> errs, Value ref, String key, String at) {
    String v = str(ref, key);
    if (v.isEmpty()) {
      errs.add(FieldError.required(at + "." + key, ""));
      return;
    }
    for (String msg : MetaValidation.pathSegment(v, false)) {
      errs.add(FieldError.invalid(at + "." + key, Value.of(v), msg));
    }
  }
  /** Whether a dotted IPv4 address has a part with a leading zero. */
  public static boolean hasLeadingZero(String v4) {
    for (String part : v4.split("\\.")) {
      if (part.length() > 1 && part.startsWith("0")) {
        return true;
      }
    }
    return false;
  }
}
