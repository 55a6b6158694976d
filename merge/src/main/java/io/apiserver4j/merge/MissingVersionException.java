/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/**
 * The version a {@link VersionConverter} was asked for does not exist (any more). The updater
 * treats it specially: ownership recorded at such a version is dropped instead of failing the
 * request (SMD's {@code IsMissingVersionError}).
 */
public final class MissingVersionException extends ConversionException {
  private static final long serialVersionUID = 1L;

  /**
   * An exception with a message and no cause.
   *
   * @param message what went wrong
   */
  public MissingVersionException(String message) {
    super(message);
  }
}
