/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A resource at a group and version. */
public record GroupVersionResource(String group, String version, String resource) {
  public GroupVersionResource {
    requireNonNull(group, "group");
    requireNonNull(version, "version");
    requireNonNull(resource, "resource");
  }

  public GroupResource groupResource() {
    return new GroupResource(group, resource);
  }

  public GroupVersion groupVersion() {
    return new GroupVersion(group, version);
  }

  @Override
  public String toString() {
    return (group.isEmpty() ? "" : group + "/") + version + ", Resource=" + resource;
  }
}
