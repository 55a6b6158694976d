/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 406 (reason `NotAcceptable`). */
public final class NotAcceptableException extends StatusException {
  public NotAcceptableException(Status status) {
    super(status);
  }
}
