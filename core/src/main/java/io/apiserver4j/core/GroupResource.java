/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A resource in a group; {@link #toString()} is kube's {@code resource.group} form. */
public record GroupResource(String group, String resource) {
  public GroupResource {
    requireNonNull(group, "group");
    requireNonNull(resource, "resource");
  }

  @Override
  public String toString() {
    return group.isEmpty() ? resource : resource + "." + group;
  }
}
