/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

/** How much of a request is audited, kube's {@code audit.k8s.io/v1} levels, least first. */
public enum AuditLevel {
  /** Not audited. */
  NONE("None"),
  /** User, verb, resource, timestamps, response status: no bodies. */
  METADATA("Metadata"),
  /** Metadata and the request body. */
  REQUEST("Request"),
  /** Metadata and both bodies. */
  REQUEST_RESPONSE("RequestResponse");

  private final String kubeName;

  AuditLevel(String kubeName) {
    this.kubeName = kubeName;
  }

  /** The name in policies and events, e.g. {@code RequestResponse}. */
  public String kubeName() {
    return kubeName;
  }

  /** Whether this level records at least what {@code other} records. */
  public boolean atLeast(AuditLevel other) {
    return compareTo(other) >= 0;
  }
}
