/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A kind at a group and version. */
public record GroupVersionKind(String group, String version, String kind) {
  /**
   * Checks that no component is null.
   *
   * @param group see the record component
   * @param version see the record component
   * @param kind see the record component
   * @throws NullPointerException when a component is null
   */
  public GroupVersionKind {
    requireNonNull(group, "group");
    requireNonNull(version, "version");
    requireNonNull(kind, "kind");
  }

  /**
   * The kind of an object's {@code apiVersion} and {@code kind}.
   *
   * @param apiVersion the apiVersion string
   * @param kind the kind
   * @return the group, version and kind
   */
  public static GroupVersionKind of(String apiVersion, String kind) {
    GroupVersion gv = GroupVersion.parse(apiVersion);
    return new GroupVersionKind(gv.group(), gv.version(), kind);
  }

  /**
   * The {@code apiVersion} form of group and version.
   *
   * @return e.g. {@code v1} or {@code apps/v1}
   */
  public String apiVersion() {
    return groupVersion().apiVersion();
  }

  /**
   * The group and version.
   *
   * @return the group version
   */
  public GroupVersion groupVersion() {
    return new GroupVersion(group, version);
  }

  /**
   * The group and kind, without the version.
   *
   * @return the group kind
   */
  public GroupKind groupKind() {
    return new GroupKind(group, kind);
  }

  /** Go's form: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod} for the core group. */
  @Override
  public String toString() {
    return group + "/" + version + ", Kind=" + kind;
  }
}
