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
  public ManagedFieldsException(String message) {
    super(message);
  }

  public ManagedFieldsException(String message, Throwable cause) {
    super(message, cause);
  }
}
