/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A group and version; {@link #toString()} is the {@code apiVersion} form. */
public record GroupVersion(String group, String version) {
  /**
   * Checks that no component is null.
   *
   * @param group see the record component
   * @param version see the record component
   * @throws NullPointerException when a component is null
   */
  public GroupVersion {
    requireNonNull(group, "group");
    requireNonNull(version, "version");
  }

  /**
   * Parses an {@code apiVersion}: {@code v1} is the core group, {@code apps/v1} a named one.
   *
   * @param apiVersion the apiVersion string
   * @return the group and version
   */
  public static GroupVersion parse(String apiVersion) {
    requireNonNull(apiVersion, "apiVersion");
    int slash = apiVersion.indexOf('/');
    if (slash < 0) {
      return new GroupVersion("", apiVersion);
    }
    if (apiVersion.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException("unexpected GroupVersion string: " + apiVersion);
    }
    return new GroupVersion(apiVersion.substring(0, slash), apiVersion.substring(slash + 1));
  }

  /**
   * The {@code apiVersion} form.
   *
   * @return {@code version} for the core group, {@code group/version} otherwise
   */
  public String apiVersion() {
    return group.isEmpty() ? version : group + "/" + version;
  }

  @Override
  public String toString() {
    return apiVersion();
  }
}
