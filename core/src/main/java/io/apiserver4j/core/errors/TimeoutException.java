/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 504 (reason `Timeout`). */
public final class TimeoutException extends StatusException {
  /**
   * An exception carrying a 504 Timeout or ServerTimeout status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public TimeoutException(Status status) {
    super(status);
  }
}
