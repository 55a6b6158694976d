/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 503 (reason `ServiceUnavailable`). */
public final class ServiceUnavailableException extends StatusException {
  /**
   * An exception carrying a 503 ServiceUnavailable status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public ServiceUnavailableException(Status status) {
    super(status);
  }
}
