/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.InvalidException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import java.util.Optional;

/** The Status errors kube-apiserver's patch handler returns, with its exact texts. */
final class PatchErrors {
  private PatchErrors() {}

  /**
   * The message of {@code NewGenericServerResponse(422, ...)}: kube-apiserver replaces the patch
   * library's own error text with it.
   */
  static final String UNPROCESSABLE_MESSAGE =
      "the server rejected our request due to an error in our request";

  /** 422 Invalid with the generic message and empty details, as a failed patch operation gets. */
  static InvalidException unprocessable() {
    return new InvalidException(Status.failure(StatusReason.INVALID, UNPROCESSABLE_MESSAGE,
        StatusDetails.of("", "", "")));
  }

  static BadRequestException badRequest(String message) {
    return StatusErrors.badRequest(message);
  }

  /**
   * A plain error that kube-apiserver does not map to a Status: it answers 500 with an empty
   * reason and the error text as the message.
   */
  static StatusException unmapped(String message) {
    return new StatusException(new Status(Status.Outcome.FAILURE, 500, StatusReason.UNKNOWN,
        message, Optional.empty()));
  }
}
