/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.merge;

import static java.util.Objects.requireNonNull;

/**
 * The outcome of {@link Updater#apply} or {@link Updater#update}: the object to persist, the new
 * field ownership, and whether the object differs from the live one. When an apply changes
 * nothing, {@code object} is the live object itself; an update always returns its new object.
 *
 * @param object the object to persist
 * @param managers the field ownership after the write
 * @param changed whether {@code object} differs from the live object
 */
public record UpdateResult(TypedValue object, ManagedFieldsMap managers, boolean changed) {
  /**
   * Checks that no component is null.
   *
   * @param object see the record component
   * @param managers see the record component
   * @param changed see the record component
   * @throws NullPointerException when a component is null
   */
  public UpdateResult {
    requireNonNull(object, "object");
    requireNonNull(managers, "managers");
  }
}
