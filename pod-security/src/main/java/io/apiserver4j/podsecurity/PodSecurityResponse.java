/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.podsecurity;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.StatusException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The PodSecurity decision on one request, as kube's {@code admissionv1.AdmissionResponse} from
 * {@code Admission.Validate}.
 *
 * @param denial the error refusing the request; empty when allowed
 * @param warnings the warnings for the client
 * @param auditAnnotations the audit annotations, keys without the
 *     {@code pod-security.kubernetes.io/} prefix (e.g. {@code enforce-policy})
 */
public record PodSecurityResponse(Optional<StatusException> denial, List<String> warnings,
    Map<String, String> auditAnnotations) {
  /**
   * Copies the collections.
   *
   * @param denial see the record component
   * @param warnings see the record component
   * @param auditAnnotations see the record component
   * @throws NullPointerException when a component is null
   */
  public PodSecurityResponse {
    requireNonNull(denial, "denial");
    warnings = List.copyOf(warnings);
    auditAnnotations = Map.copyOf(auditAnnotations);
  }

  /**
   * Whether the request is allowed.
   *
   * @return true unless denied
   */
  public boolean allowed() {
    return denial.isEmpty();
  }

  static PodSecurityResponse allow() {
    return new PodSecurityResponse(Optional.empty(), List.of(), Map.of());
  }

  static PodSecurityResponse allow(Map<String, String> auditAnnotations) {
    return new PodSecurityResponse(Optional.empty(), List.of(), auditAnnotations);
  }

  static PodSecurityResponse warn(String warning) {
    return new PodSecurityResponse(Optional.empty(), List.of(warning), Map.of());
  }
}
