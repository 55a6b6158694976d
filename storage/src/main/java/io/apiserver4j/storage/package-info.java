/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The storage SPI and its in-memory default: {@link io.apiserver4j.storage.Store} (get, list
 * with selectors and pagination, create, compare-and-swap update, guaranteed update, delete,
 * watch), the keys and options it takes, and {@link io.apiserver4j.storage.InMemoryStore}.
 * Every store passes the same contract tests.
 */
package io.apiserver4j.storage;
