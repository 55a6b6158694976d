/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Field paths and sets, as structured-merge-diff's {@code fieldpath} package: path elements
 * ({@link io.apiserver4j.fieldpath.PathElement}: field, key, value, index), paths, the immutable
 * trie {@link io.apiserver4j.fieldpath.FieldSet} with its set algebra, the FieldsV1 codec
 * ({@link io.apiserver4j.fieldpath.FieldsV1}) and {@code metadata.managedFields} entries
 * ({@link io.apiserver4j.fieldpath.ManagedFields}).
 */
package io.apiserver4j.fieldpath;
