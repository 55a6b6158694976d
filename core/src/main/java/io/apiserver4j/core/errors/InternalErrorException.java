/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 500 (reason `InternalError`). */
public final class InternalErrorException extends StatusException {
  /**
   * An exception carrying a 500 InternalError status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public InternalErrorException(Status status) {
    super(status);
  }
}
