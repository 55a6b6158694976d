/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 406 (reason `NotAcceptable`). */
public final class NotAcceptableException extends StatusException {
  /**
   * An exception carrying a 406 NotAcceptable status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public NotAcceptableException(Status status) {
    super(status);
  }
}
