/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A kind in a group; {@link #toString()} is kube's {@code Kind.group} form. */
public record GroupKind(String group, String kind) {
  public GroupKind {
    requireNonNull(group, "group");
    requireNonNull(kind, "kind");
  }

  @Override
  public String toString() {
    return group.isEmpty() ? kind : kind + "." + group;
  }
}
