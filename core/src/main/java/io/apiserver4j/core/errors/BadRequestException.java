/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 400 (reason `BadRequest`). */
public final class BadRequestException extends StatusException {
  /**
   * An exception carrying a 400 BadRequest status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public BadRequestException(Status status) {
    super(status);
  }
}
