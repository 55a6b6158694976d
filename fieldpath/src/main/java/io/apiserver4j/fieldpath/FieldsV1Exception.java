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
  public FieldsV1Exception(String message) {
    super(message);
  }

  public FieldsV1Exception(String message, Throwable cause) {
    super(message, cause);
  }
}
