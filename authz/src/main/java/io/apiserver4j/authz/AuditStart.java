/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the HTTP layer knows about a request when its audit starts (kube's
 * {@code LogRequestMetadata} inputs).
 *
 * @param auditId the {@code Audit-ID} header of the request, or a generated UUID
 * @param received when the request arrived
 * @param requestUri the path and query as sent, still percent-encoded
 * @param sourceIps {@code X-Forwarded-For} entries, {@code X-Real-Ip}, then the peer address
 * @param userAgent the {@code User-Agent} header; empty when absent
 * @param attributes the request as the authorizer sees it, with the authenticated user (before
 *     impersonation; {@code UserInfo.empty()} when authentication failed)
 * @param longRunning whether the request streams (watches): it gets a ResponseStarted event
 * @param authenticationFailure present when authentication failed: kube's text of the
 *     credentials tried; such a request is audited by its answer (ResponseStarted) only
 */
public record AuditStart(String auditId, Instant received, String requestUri,
    List<String> sourceIps, String userAgent, AuthorizationAttributes attributes,
    boolean longRunning, Optional<String> authenticationFailure) {

  /**
   * Checks that no component is null and copies the source IPs.
   *
   * @param auditId see the record component
   * @param received see the record component
   * @param requestUri see the record component
   * @param sourceIps see the record component
   * @param userAgent see the record component
   * @param attributes see the record component
   * @param longRunning see the record component
   * @param authenticationFailure see the record component
   * @throws NullPointerException when a component is null
   */
  public AuditStart {
    requireNonNull(auditId, "auditId");
    requireNonNull(received, "received");
    requireNonNull(requestUri, "requestUri");
    sourceIps = List.copyOf(sourceIps);
    requireNonNull(userAgent, "userAgent");
    requireNonNull(attributes, "attributes");
    requireNonNull(authenticationFailure, "authenticationFailure");
  }
}
