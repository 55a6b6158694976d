/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 422 (reason `Invalid`). */
public final class InvalidException extends StatusException {
  /**
   * An exception carrying a 422 Invalid status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public InvalidException(Status status) {
    super(status);
  }
}
