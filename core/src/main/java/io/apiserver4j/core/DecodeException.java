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
  /**
   * An exception with a message and no cause.
   *
   * @param message the problem, with line and column where known
   */
  public DecodeException(String message) {
    super(message);
  }

  /**
   * An exception caused by a parser's failure.
   *
   * @param message the problem, with line and column where known
   * @param cause the parser's exception
   */
  public DecodeException(String message, Throwable cause) {
    super(message, cause);
  }
}
