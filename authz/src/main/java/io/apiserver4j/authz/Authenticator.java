/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

/**
 * Identifies the user of a request, like kube-apiserver's request authenticators. Called for
 * every request, from many threads at once: implementations must be thread-safe and fast.
 * Unexpected exceptions are answered with 500.
 *
 * @see Authenticators for bearer tokens, client certificates and combinations
 */
@FunctionalInterface
public interface Authenticator {
  /**
   * Authenticates one request.
   *
   * @param request the request's headers, certificates and address
   * @return the user, no credentials of this kind, or a rejection
   */
  AuthenticationResult authenticate(AuthenticationRequest request);
}
