/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 500 (reason `InternalError`). */
public final class InternalErrorException extends StatusException {
  public InternalErrorException(Status status) {
    super(status);
  }
}
