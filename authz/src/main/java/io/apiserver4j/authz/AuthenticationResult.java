/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.admission.UserInfo;

/**
 * The outcome of one {@link Authenticator}: the request carried credentials of its kind and they
 * identify a user; or it carried none of its kind (the next authenticator is asked); or it
 * carried some and they are invalid (the request is refused with 401, as kube refuses an
 * unknown bearer token even when anonymous requests are allowed).
 */
public sealed interface AuthenticationResult {

  /** Identified {@code user}. */
  record Authenticated(UserInfo user) implements AuthenticationResult {
    public Authenticated {
      requireNonNull(user, "user");
    }
  }

  /** No credentials this authenticator understands. */
  record NoCredentials() implements AuthenticationResult {}

  /** Invalid credentials; {@code reason} is for logs, clients only see {@code Unauthorized}. */
  record Rejected(String reason) implements AuthenticationResult {
    public Rejected {
      requireNonNull(reason, "reason");
    }
  }

  static AuthenticationResult authenticated(UserInfo user) {
    return new Authenticated(user);
  }

  static AuthenticationResult noCredentials() {
    return new NoCredentials();
  }

  static AuthenticationResult rejected(String reason) {
    return new Rejected(reason);
  }
}
