/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 415 (reason `UnsupportedMediaType`). */
public final class UnsupportedMediaTypeException extends StatusException {
  /**
   * An exception carrying a 415 UnsupportedMediaType status; {@link StatusException#of} picks this type for it.
   *
   * @param status the status returned to the client
   */
  public UnsupportedMediaTypeException(Status status) {
    super(status);
  }
}
