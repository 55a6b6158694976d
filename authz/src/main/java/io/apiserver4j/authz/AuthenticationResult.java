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

  /**
   * Identified {@code user}.
   *
   * @param user the authenticated user
   */
  record Authenticated(UserInfo user) implements AuthenticationResult {
    /**
     * Checks that the user is not null.
     *
     * @param user see the record component
     * @throws NullPointerException when it is null
     */
    public Authenticated {
      requireNonNull(user, "user");
    }
  }

  /** No credentials this authenticator understands. */
  record NoCredentials() implements AuthenticationResult {}

  /**
   * Invalid credentials; {@code reason} is for logs, clients only see {@code Unauthorized}.
   *
   * @param reason why the credentials are invalid
   */
  record Rejected(String reason) implements AuthenticationResult {
    /**
     * Checks that the reason is not null.
     *
     * @param reason see the record component
     * @throws NullPointerException when it is null
     */
    public Rejected {
      requireNonNull(reason, "reason");
    }
  }

  /**
   * The request identifies {@code user}.
   *
   * @param user the user
   * @return an {@link Authenticated} result
   */
  static AuthenticationResult authenticated(UserInfo user) {
    return new Authenticated(user);
  }

  /**
   * The request carries no credentials of this authenticator's kind.
   *
   * @return a {@link NoCredentials} result
   */
  static AuthenticationResult noCredentials() {
    return new NoCredentials();
  }

  /**
   * The request's credentials are invalid (401).
   *
   * @param reason why, for logs
   * @return a {@link Rejected} result
   */
  static AuthenticationResult rejected(String reason) {
    return new Rejected(reason);
  }
}
