/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

/**
 * How a strategic merge patch combines a field's patch value with its current value: Go's
 * {@code patchStrategy} struct tag, OpenAPI's {@code x-kubernetes-patch-strategy} (without
 * {@code retainKeys}, which {@link PatchField#retainKeys()} carries).
 */
public enum PatchStrategy {
  /** Maps merge key by key; lists and scalars are replaced by the patch value. */
  DEFAULT,
  /**
   * Lists merge: lists of objects by {@link PatchField#mergeKey()}, lists of scalars as sets.
   * (Maps merge as with {@link #DEFAULT}.)
   */
  MERGE,
  /** Maps are replaced whole by the patch value. (Lists are replaced as with {@link #DEFAULT}.) */
  REPLACE
}
