/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Where a webhook is called: over HTTPS ({@link HttpEndpoint}) or in process (a function, see
 * {@link WebhookAdapter}). Thread-safe.
 */
interface WebhookEndpoint {
  /**
   * Sends {@code request} as an AdmissionReview of {@code version}.
   *
   * @return the verified response; completes exceptionally with a {@link WebhookCallException}
   *     (kube's reason text) when the webhook could not be called or answered nonsense
   */
  CompletableFuture<AdmissionReviewResponse> call(AdmissionReviewRequest request,
      String version, boolean mutating, Duration timeout);
}
