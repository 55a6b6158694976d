/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/** A {@link VersionConverter} could not convert an object. */
public class ConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ConversionException(String message) {
    super(message);
  }

  public ConversionException(String message, Throwable cause) {
    super(message, cause);
  }
}
