/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

/**
 * Whether {@link TypedValue#extractItems(io.apiserver4j.fieldpath.FieldSet, KeyFields)} also keeps
 * the key fields of every associative-list item on an extracted path (SMD's
 * {@code WithAppendKeyFields}), so that the extracted object can be applied as is.
 */
public enum KeyFields {
  /** Only the extracted paths. */
  OMIT,
  /** The extracted paths and the key fields of the list items on the way to them. */
  INCLUDE
}
