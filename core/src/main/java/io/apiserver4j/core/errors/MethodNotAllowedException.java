/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 405 (reason `MethodNotAllowed`). */
public final class MethodNotAllowedException extends StatusException {
  public MethodNotAllowedException(Status status) {
    super(status);
  }
}
