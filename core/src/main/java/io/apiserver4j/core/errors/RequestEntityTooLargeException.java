/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 413 (reason `RequestEntityTooLarge`). */
public final class RequestEntityTooLargeException extends StatusException {
  /**
   * An exception carrying a 413 RequestEntityTooLarge status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public RequestEntityTooLargeException(Status status) {
    super(status);
  }
}
