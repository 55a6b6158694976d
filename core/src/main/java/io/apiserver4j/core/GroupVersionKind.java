/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core;

import static java.util.Objects.requireNonNull;

/** A kind at a group and version. */
public record GroupVersionKind(String group, String version, String kind) {
  public GroupVersionKind {
    requireNonNull(group, "group");
    requireNonNull(version, "version");
    requireNonNull(kind, "kind");
  }

  public static GroupVersionKind of(String apiVersion, String kind) {
    GroupVersion gv = GroupVersion.parse(apiVersion);
    return new GroupVersionKind(gv.group(), gv.version(), kind);
  }

  public String apiVersion() {
    return groupVersion().apiVersion();
  }

  public GroupVersion groupVersion() {
    return new GroupVersion(group, version);
  }

  public GroupKind groupKind() {
    return new GroupKind(group, kind);
  }

  /** Go's form: {@code apps/v1, Kind=Deployment}, {@code /v1, Kind=Pod} for the core group. */
  @Override
  public String toString() {
    return group + "/" + version + ", Kind=" + kind;
  }
}
