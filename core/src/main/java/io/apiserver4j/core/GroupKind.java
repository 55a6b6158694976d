/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A kind in a group; {@link #toString()} is kube's {@code Kind.group} form. */
public record GroupKind(String group, String kind) {
  /**
   * Checks that no component is null.
   *
   * @param group see the record component
   * @param kind see the record component
   * @throws NullPointerException when a component is null
   */
  public GroupKind {
    requireNonNull(group, "group");
    requireNonNull(kind, "kind");
  }

  @Override
  public String toString() {
    return group.isEmpty() ? kind : kind + "." + group;
  }
}
