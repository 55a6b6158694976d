/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

/** A {@link StatusException} with HTTP code 410 (reason `Gone` or `Expired`). */
public final class GoneException extends StatusException {
  public GoneException(Status status) {
    super(status);
  }
}
