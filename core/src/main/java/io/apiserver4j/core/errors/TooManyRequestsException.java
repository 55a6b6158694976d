/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 429 (reason `TooManyRequests`). */
public final class TooManyRequestsException extends StatusException {
  public TooManyRequestsException(Status status) {
    super(status);
  }
}
