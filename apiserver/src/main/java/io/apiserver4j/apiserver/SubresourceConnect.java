/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.answer.ConnectResponse;
import java.util.Set;

/**
 * A subresource whose requests kube-apiserver answers from elsewhere than its storage: a
 * kubelet's stream ({@code pods/log}, {@code pods/exec}, {@code pods/attach},
 * {@code pods/portforward}) or a proxied endpoint ({@code pods/proxy}, {@code nodes/proxy},
 * {@code services/proxy}), as kube's {@code rest.Connecter} and {@code GetterWithOptions}
 * storages do. The HTTP layer serves them (authorization, then {@link #connect}); the in-process
 * {@link ApiServer#handle} answers 405 as it has no connection to hand over.
 *
 * <p>Implementations are immutable and thread-safe. Failures are thrown as Status errors with
 * kube's reason and code.
 */
@FunctionalInterface
public non-sealed interface SubresourceConnect extends SubresourceHandler {
  /** The HTTP methods kube registers for {@code pods/exec} and friends. */
  Set<String> UPGRADE_METHODS = Set.of("GET", "POST");
  /** The HTTP methods kube's proxy subresources accept. */
  Set<String> PROXY_METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

  /**
   * Answers one request.
   *
   * @param call the request
   * @return the answer to send
   * @throws io.apiserver4j.core.errors.StatusException kube's error for the request
   */
  ConnectResponse connect(ConnectCall call);

  /** The HTTP methods served; the others are kube's 405. Default: GET only. */
  default Set<String> methods() {
    return Set.of("GET");
  }

  /**
   * Whether the request path may continue after the subresource ({@code pods/p/proxy/a/b}),
   * as kube's proxy connecters take a {@code path}; false by default.
   */
  default boolean takesPath() {
    return false;
  }

  /** No in-process verbs: {@link ApiServer#handle} answers 405. */
  @Override
  default Set<ApiRequest.Verb> verbs() {
    return Set.of();
  }
}
