/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

/**
 * Decides whether a user may make a request, like kube-apiserver's authorizers (RBAC, ...).
 * Called after authentication for every request, including discovery and the health endpoints,
 * from many threads: implementations must be thread-safe and fast. A server-side apply of a
 * missing object is authorized for {@code patch} and then for {@code create}.
 */
@FunctionalInterface
public interface Authorizer {
  /**
   * Decides one request.
   *
   * @param attributes the user and what the request does
   * @return Allow or Deny
   */
  AuthorizationDecision authorize(AuthorizationAttributes attributes);

  /**
   * Allows everything.
   *
   * @return an authorizer whose every decision is Allow
   */
  static Authorizer allowAll() {
    return attributes -> AuthorizationDecision.allow();
  }
}
