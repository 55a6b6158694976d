/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * Path elements, field paths, field sets and the {@code FieldsV1} codec of
 * {@code metadata.managedFields}.
 */
module io.apiserver4j.fieldpath {
  requires transitive io.apiserver4j.core;
  requires com.fasterxml.jackson.core;

  exports io.apiserver4j.fieldpath;
}
