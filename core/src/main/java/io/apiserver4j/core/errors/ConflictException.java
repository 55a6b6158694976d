/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 409 (reason `Conflict`). */
public final class ConflictException extends StatusException {
  /**
   * An exception carrying a 409 Conflict status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public ConflictException(Status status) {
    super(status);
  }
}
