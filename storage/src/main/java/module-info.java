/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * The storage SPI (get, list, create, compare-and-swap update, delete, watch) and the in-memory
 * store.
 */
module io.apiserver4j.storage {
  requires transitive io.apiserver4j.core;
  requires com.fasterxml.jackson.core;

  exports io.apiserver4j.storage;
}
