/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

/**
 * Told about changes of a {@link ResourceRegistry}: definitions added when a
 * CustomResourceDefinition becomes established, removed when it is deleted, replaced when it
 * changes, whichever server sharing the storage wrote it. Called on a request's thread or on the
 * server's CRD watch thread, one change at a time; implementations must be fast and must not
 * call back into the server.
 */
@FunctionalInterface
public interface RegistryListener {
  /** One change. */
  enum Change { ADDED, REMOVED, REPLACED }

  void onChange(Change change, ResourceDefinition definition);
}
