/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.certificates;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.Set;
import java.util.TreeSet;

/**
 * kube's CSR condition helpers (pkg/controller/certificates {@code GetCertApprovalCondition},
 * {@code IsCertificateRequestApproved}, {@code HasTrueCondition}) on CertificateSigningRequest
 * values.
 */
public final class CsrStatus {
  private CsrStatus() {}

  /** Whether a condition of {@code type} is present, whatever its status. */
  public static boolean has(MapValue csr, String type) {
    return Nested.list(csr, "status", "conditions").stream()
        .anyMatch(c -> Nested.str(c, "type").equals(type));
  }

  /** {@code IsCertificateRequestApproved}: Approved and not Denied. */
  public static boolean approved(MapValue csr) {
    return has(csr, "Approved") && !has(csr, "Denied");
  }

  /** {@code HasTrueCondition}: a condition of {@code type} with status True. */
  public static boolean hasTrue(MapValue csr, String type) {
    return Nested.list(csr, "status", "conditions").stream()
        .anyMatch(c -> Nested.str(c, "type").equals(type)
            && Nested.str(c, "status").equals("True"));
  }

  /** Whether a certificate was issued. */
  public static boolean issued(MapValue csr) {
    return !Nested.str(csr, "status", "certificate").isEmpty();
  }

  /** {@code spec.usages} as a set. */
  public static Set<String> usages(MapValue csr) {
    Set<String> out = new TreeSet<>();
    for (Value u : Nested.list(csr, "spec", "usages")) {
      out.add(Nested.str(u));
    }
    return out;
  }
}
