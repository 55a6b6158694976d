/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/** A {@link VersionConverter} could not convert an object. */
public class ConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message and no cause.
   *
   * @param message what went wrong
   */
  public ConversionException(String message) {
    super(message);
  }

  /**
   * An exception caused by a lower-level failure.
   *
   * @param message what went wrong
   * @param cause the underlying failure
   */
  public ConversionException(String message, Throwable cause) {
    super(message, cause);
  }
}
