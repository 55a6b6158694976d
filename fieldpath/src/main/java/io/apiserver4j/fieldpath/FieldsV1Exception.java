/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

/**
 * Malformed FieldsV1 JSON or a malformed serialized path element. The message says what is wrong
 * and where (offset in the input, or the offending key). The API layer turns it into the
 * appropriate Status error; by itself it is a plain unchecked exception.
 */
public final class FieldsV1Exception extends RuntimeException {
  /**
   * An exception with a message and no cause.
   *
   * @param message what is wrong and where
   */
  public FieldsV1Exception(String message) {
    super(message);
  }

  /**
   * An exception caused by a lower-level failure (a JSON parser's, a time parser's).
   *
   * @param message what is wrong and where
   * @param cause the underlying failure
   */
  public FieldsV1Exception(String message, Throwable cause) {
    super(message, cause);
  }
}
