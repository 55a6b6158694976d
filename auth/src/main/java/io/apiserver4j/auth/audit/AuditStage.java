/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

/** When in a request's life an audit event is written, kube's {@code audit.k8s.io/v1} stages. */
public enum AuditStage {
  /** As soon as the request is received, before it is handled. */
  REQUEST_RECEIVED("RequestReceived"),
  /** Once the response headers are sent, for long-running requests (watches) only. */
  RESPONSE_STARTED("ResponseStarted"),
  /** Once the response is complete. */
  RESPONSE_COMPLETE("ResponseComplete"),
  /** When handling the request failed unexpectedly. */
  PANIC("Panic");

  private final String kubeName;

  AuditStage(String kubeName) {
    this.kubeName = kubeName;
  }

  /** The name in policies and events, e.g. {@code ResponseComplete}. */
  public String kubeName() {
    return kubeName;
  }
}
