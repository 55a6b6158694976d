/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 401 (reason `Unauthorized`). */
public final class UnauthorizedException extends StatusException {
  public UnauthorizedException(Status status) {
    super(status);
  }
}
