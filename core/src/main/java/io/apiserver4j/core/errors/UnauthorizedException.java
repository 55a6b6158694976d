/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 401 (reason `Unauthorized`). */
public final class UnauthorizedException extends StatusException {
  /**
   * An exception carrying a 401 Unauthorized status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public UnauthorizedException(Status status) {
    super(status);
  }
}
