/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

/**
 * A webhook call that failed before the webhook could decide (kube's {@code ErrCallingWebhook}):
 * the webhook's failure policy decides what happens. The message is kube's reason, e.g.
 * {@code failed to call webhook: Post "https://...": context deadline exceeded}.
 */
final class WebhookCallException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why, without kube's prefix (e.g. {@code webhook response was absent}). */
  private final String detail;

  WebhookCallException(String prefix, String detail) {
    super(prefix.isEmpty() ? detail : prefix + ": " + detail);
    this.detail = detail;
  }

  String detail() {
    return detail;
  }

  /** An answer that is not a valid AdmissionReview response. */
  static WebhookCallException invalidResponse(String detail) {
    return new WebhookCallException("received invalid webhook response", detail);
  }
}
