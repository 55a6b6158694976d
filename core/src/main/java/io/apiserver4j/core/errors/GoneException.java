/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 410 (reason `Gone` or `Expired`). */
public final class GoneException extends StatusException {
  /**
   * An exception carrying a 410 Gone or Expired status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public GoneException(Status status) {
    super(status);
  }
}
