/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.fieldpath;

import java.util.Optional;

/** The operation that recorded a managed-fields entry, with its exact wire spelling. */
public enum ManagedFieldsOperation {
  /** A server-side apply ({@code Apply}). */
  APPLY("Apply"),
  /** Any other write: create, update, patch ({@code Update}). */
  UPDATE("Update");

  private final String wireName;

  ManagedFieldsOperation(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The spelling on the wire.
   *
   * @return {@code Apply} or {@code Update}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The operation spelled exactly (case-sensitive) {@code Apply} or {@code Update}.
   *
   * @param name the wire name, possibly null
   * @return the operation; empty for any other spelling
   */
  public static Optional<ManagedFieldsOperation> fromWireName(String name) {
    if ("Apply".equals(name)) {
      return Optional.of(APPLY);
    }
    if ("Update".equals(name)) {
      return Optional.of(UPDATE);
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return wireName;
  }
}
