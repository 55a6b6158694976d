/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A resource in a group; {@link #toString()} is kube's {@code resource.group} form. */
public record GroupResource(String group, String resource) {
  /**
   * Checks that no component is null.
   *
   * @param group see the record component
   * @param resource see the record component
   * @throws NullPointerException when a component is null
   */
  public GroupResource {
    requireNonNull(group, "group");
    requireNonNull(resource, "resource");
  }

  @Override
  public String toString() {
    return group.isEmpty() ? resource : resource + "." + group;
  }
}
