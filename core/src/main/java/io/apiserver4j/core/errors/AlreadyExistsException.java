/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 409 (reason `AlreadyExists`). */
public final class AlreadyExistsException extends StatusException {
  /**
   * An exception carrying a 409 AlreadyExists status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public AlreadyExistsException(Status status) {
    super(status);
  }
}
