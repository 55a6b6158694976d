/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 403 (reason `Forbidden`). */
public final class ForbiddenException extends StatusException {
  /**
   * An exception carrying a 403 Forbidden status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public ForbiddenException(Status status) {
    super(status);
  }
}
