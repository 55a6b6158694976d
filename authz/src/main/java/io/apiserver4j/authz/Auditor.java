/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

/**
 * Audits requests, as kube-apiserver's audit filter does: asked once per request, after
 * authentication (or after it failed), it answers with the recorder the HTTP layer then tells
 * what happens to the request. The audit policy, the events and the sinks live behind this
 * interface (see {@code io.apiserver4j.auth.audit.Audit}).
 *
 * <p>Called from many threads: implementations must be thread-safe. An exception from
 * {@link #begin} (a sink that cannot store the first event) fails the request with 500, as kube
 * does when its audit backend refuses an event.
 */
@FunctionalInterface
public interface Auditor {
  /** Audits nothing. */
  Auditor NONE = start -> AuditRecorder.NONE;

  /**
   * Starts auditing one request.
   *
   * @param start what is known when the request arrives
   * @return the request's recorder; {@link AuditRecorder#NONE} when it is not audited
   */
  AuditRecorder begin(AuditStart start);

  /**
   * Audits nothing.
   *
   * @return {@link #NONE}
   */
  static Auditor none() {
    return NONE;
  }
}
