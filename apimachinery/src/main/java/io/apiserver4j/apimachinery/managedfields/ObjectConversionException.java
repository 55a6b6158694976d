/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

/**
 * Thrown by a {@link FieldManager.Builder#objectConverter object converter} when the merged
 * object of an apply does not convert to the endpoint's typed form (kube's conversion from
 * unstructured to the Go type). The field manager reports it as kube does: a 500 naming the
 * object and the kind, ending with this message.
 */
public final class ObjectConversionException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message what does not convert, as the decoder words it */
  public ObjectConversionException(String message) {
    super(message, null, false, false);
  }
}
