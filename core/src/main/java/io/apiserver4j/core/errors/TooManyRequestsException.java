/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 429 (reason `TooManyRequests`). */
public final class TooManyRequestsException extends StatusException {
  /**
   * An exception carrying a 429 TooManyRequests status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public TooManyRequestsException(Status status) {
    super(status);
  }
}
