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
    public Allow {
      requireNonNull(reason, "reason");
    }

    public Allow() {
      this("");
    }
  }

  /**
   * The request is refused with 403; a non-empty {@code reason} is appended to the message as
   * kube-apiserver does ({@code ...in the namespace "ns": <reason>}).
   */
  record Deny(String reason) implements AuthorizationDecision {
    public Deny {
      requireNonNull(reason, "reason");
    }
  }

  static AuthorizationDecision allow() {
    return new Allow();
  }

  static AuthorizationDecision allow(String reason) {
    return new Allow(reason);
  }

  static AuthorizationDecision deny(String reason) {
    return new Deny(reason);
  }
}
