/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 422 (reason `Invalid`). */
public final class InvalidException extends StatusException {
  public InvalidException(Status status) {
    super(status);
  }
}
