/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

import io.apiserver4j.core.LabelValidation;
import java.util.List;

/**
 * Where a request's audit annotations go: kube's {@code audit.AddAuditAnnotation}, reached by
 * admission plugins through {@link AdmissionAttributes#auditAnnotations()}. Annotations end up
 * in the {@code annotations} of the request's audit events (when the request is audited at
 * level Metadata or higher), as those kube-apiserver's admission plugins and webhooks add.
 *
 * <p>Implementations are thread-safe: a request's webhooks may run in parallel.
 */
@FunctionalInterface
public interface AuditAnnotations {
  /** Drops every annotation (the request is not audited). */
  AuditAnnotations DISCARD = (key, value) -> checkKey(key);

  /**
   * Adds {@code key: value}. A key already set to another value keeps its first value, as
   * kube's audit context does.
   *
   * @throws IllegalArgumentException when the key is not a prefixed qualified name such as
   *     {@code podsecurity.kubernetes.io/enforce-policy} (kube's admission rule)
   * @param key the annotation key
   * @param value the value
   */
  void add(String key, String value);

  /**
   * Checks a key as kube's admission attributes do: a DNS-subdomain prefix, {@code /}, a name.
   *
   * @throws IllegalArgumentException naming the problem, in kube's words
   * @param key the annotation key
   */
  static void checkKey(String key) {
    if (key.split("/", -1).length != 2) {
      throw new IllegalArgumentException("annotation key has invalid format, the right format is"
          + " a DNS subdomain prefix and '/' and key name. (e.g."
          + " 'podsecuritypolicy.admission.k8s.io/admit-policy')");
    }
    List<String> errors = LabelValidation.qualifiedName(key);
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException("annotation key has invalid format "
          + String.join(",", errors) + ". A qualified name like"
          + " 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.");
    }
  }
}
