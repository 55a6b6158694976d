/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

/**
 * A {@code metadata.managedFields} list that cannot be decoded. The message is kube-apiserver's
 * text where kube-apiserver has one (for example {@code operation must be `Apply` or `Update`});
 * the request layer decides which Status error it becomes.
 */
public final class ManagedFieldsException extends RuntimeException {
  /**
   * An exception with a message and no cause.
   *
   * @param message what is wrong and where
   */
  public ManagedFieldsException(String message) {
    super(message);
  }

  /**
   * An exception caused by a lower-level failure (a JSON parser's, a time parser's).
   *
   * @param message what is wrong and where
   * @param cause the underlying failure
   */
  public ManagedFieldsException(String message, Throwable cause) {
    super(message, cause);
  }
}
