/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

/** An {@link Authorizer}'s answer. */
public sealed interface AuthorizationDecision {
  /**
   * The request may proceed; a non-empty {@code reason} (e.g. the RBAC binding that allowed it)
   * is recorded in the audit annotation {@code authorization.k8s.io/reason}.
   */
  record Allow(String reason) implements AuthorizationDecision {
    /**
     * Checks that the reason is not null.
     *
     * @param reason see the record component
     * @throws NullPointerException when it is null
     */
    public Allow {
      requireNonNull(reason, "reason");
    }

    /**
     * An Allow without a reason.
     */
    public Allow() {
      this("");
    }
  }

  /**
   * The request is refused with 403; a non-empty {@code reason} is appended to the message as
   * kube-apiserver does ({@code ...in the namespace "ns": <reason>}).
   */
  record Deny(String reason) implements AuthorizationDecision {
    /**
     * Checks that the reason is not null.
     *
     * @param reason see the record component
     * @throws NullPointerException when it is null
     */
    public Deny {
      requireNonNull(reason, "reason");
    }
  }

  /**
   * Allows the request without a reason.
   *
   * @return an {@link Allow}
   */
  static AuthorizationDecision allow() {
    return new Allow();
  }

  /**
   * Allows the request, recording why.
   *
   * @param reason e.g. the RBAC binding that allowed it
   * @return an {@link Allow}
   */
  static AuthorizationDecision allow(String reason) {
    return new Allow(reason);
  }

  /**
   * Refuses the request with 403.
   *
   * @param reason appended to the message; empty for none
   * @return a {@link Deny}
   */
  static AuthorizationDecision deny(String reason) {
    return new Deny(reason);
  }
}
