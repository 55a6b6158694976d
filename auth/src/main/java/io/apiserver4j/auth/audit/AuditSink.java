/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.audit;

/**
 * Receives audit events, kube's audit backend: the {@link AuditLogSink JSON-lines log}, a test
 * recorder, a forwarder. Called on request threads, one event at a time per request and from
 * many requests at once: implementations are thread-safe and should be quick.
 *
 * <p>An exception thrown for a {@link AuditStage#REQUEST_RECEIVED} event fails the request with
 * 500 before it is handled (kube refuses requests its blocking backend cannot record); for later
 * stages it is logged and the request is unaffected.
 */
@FunctionalInterface
public interface AuditSink {
  void process(AuditEvent event);
}
