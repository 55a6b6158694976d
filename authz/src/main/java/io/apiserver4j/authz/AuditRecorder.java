/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.authz;

import io.apiserver4j.admission.AuditAnnotations;
import io.apiserver4j.admission.UserInfo;
import io.apiserver4j.core.Value;
import java.util.function.Supplier;

/**
 * The audit of one request, told by the HTTP layer what happens to it (kube's audit context).
 * Annotations may come from admission plugins through {@link AuditAnnotations}. Thread-safe:
 * the request-timeout watchdog may answer while the handler still runs. Calls after
 * {@link #complete()} or {@link #panic(Throwable)} are ignored.
 */
public interface AuditRecorder extends AuditAnnotations {
  /** Records nothing. */
  AuditRecorder NONE = new AuditRecorder() {
    @Override
    public void add(String key, String value) {
      AuditAnnotations.checkKey(key);
    }
  };

  /**
   * The request runs as {@code user} (impersonation headers).
   *
   * @param user the impersonated user
   */
  default void impersonated(UserInfo user) {}

  /**
   * The request runs as {@code user}, allowed by constrained impersonation's {@code constraint}
   * (kube's {@code authenticationMetadata.impersonationConstraint}, e.g.
   * {@code impersonate:user-info}); an empty constraint is legacy impersonation. By default,
   * {@link #impersonated(UserInfo)}.
   *
   * @param user the impersonated user
   * @param constraint the constrained impersonation verb, or empty
   */
  default void impersonated(UserInfo user, String constraint) {
    impersonated(user);
  }

  /**
   * The decoded body of a create, update or delete; evaluated only when the audit level needs
   * it. A body that does not decode is left out, as kube logs only decoded objects.
   *
   * @param decoded supplies the decoded body
   */
  default void requestObject(Supplier<Value> decoded) {}

  /**
   * The body of a patch, logged as sent (kube's {@code LogRequestPatch}).
   *
   * @param decoded supplies the decoded patch
   */
  default void requestPatch(Supplier<Value> decoded) {}

  /**
   * The status line is being sent with {@code code}.
   *
   * @param code the HTTP status code
   */
  default void responseStarted(int code) {}

  /**
   * The body sent: a {@code Status} for failures, the object (or list, table) otherwise.
   *
   * @param body the response body
   */
  default void responseObject(Value body) {}

  /** The request is done: emits ResponseComplete. */
  default void complete() {}

  /**
   * The handler failed unexpectedly: emits Panic instead of ResponseComplete.
   *
   * @param failure the unexpected exception
   */
  default void panic(Throwable failure) {}
}
