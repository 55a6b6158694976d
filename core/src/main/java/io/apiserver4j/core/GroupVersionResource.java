/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A resource at a group and version. */
public record GroupVersionResource(String group, String version, String resource) {
  /**
   * Checks that no component is null.
   *
   * @param group see the record component
   * @param version see the record component
   * @param resource see the record component
   * @throws NullPointerException when a component is null
   */
  public GroupVersionResource {
    requireNonNull(group, "group");
    requireNonNull(version, "version");
    requireNonNull(resource, "resource");
  }

  /**
   * The group and resource, without the version.
   *
   * @return the group resource
   */
  public GroupResource groupResource() {
    return new GroupResource(group, resource);
  }

  /**
   * The group and version.
   *
   * @return the group version
   */
  public GroupVersion groupVersion() {
    return new GroupVersion(group, version);
  }

  @Override
  public String toString() {
    return (group.isEmpty() ? "" : group + "/") + version + ", Resource=" + resource;
  }
}
