/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.webhook;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A webhook that is a function in this JVM: called synchronously, its response verified as an
 * HTTP webhook's would be. There is no wire, so no timeout.
 */
final class FunctionEndpoint implements WebhookEndpoint {
  private final Function<AdmissionReviewRequest, AdmissionReviewResponse> handler;

  FunctionEndpoint(Function<AdmissionReviewRequest, AdmissionReviewResponse> handler) {
    this.handler = handler;
  }

  @Override
  public CompletableFuture<AdmissionReviewResponse> call(AdmissionReviewRequest request,
      String version, boolean mutating, Duration timeout) {
    AdmissionReviewResponse response;
    try {
      response = handler.apply(request);
    } catch (RuntimeException e) {
      String why = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
      return CompletableFuture.failedFuture(
          new WebhookCallException("failed to call webhook", why));
    }
    if (response == null) {
      return CompletableFuture.failedFuture(
          WebhookCallException.invalidResponse("webhook response was absent"));
    }
    try {
      // the same checks as for a response read from the wire
      return CompletableFuture.completedFuture(AdmissionReviewResponse.fromValue(
          response.toValue(), AdmissionReviewRequest.V1, mutating,
          Optional.of(request.uid())));
    } catch (WebhookCallException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
