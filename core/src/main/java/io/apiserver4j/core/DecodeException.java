/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

/**
 * Malformed or hostile input to a codec: syntax errors, duplicate map keys, exceeded
 * {@link DecodeLimits}. The message names the problem and, where known, the line and column.
 * The request layer turns it into a 400 {@code BadRequest} {@link io.apiserver4j.core.errors.Status}.
 */
public final class DecodeException extends RuntimeException {
  public DecodeException(String message) {
    super(message);
  }

  public DecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
