/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 404 (reason `NotFound`). */
public final class NotFoundException extends StatusException {
  /**
   * An exception carrying a 404 NotFound status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public NotFoundException(Status status) {
    super(status);
  }
}
