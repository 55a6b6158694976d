/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.dryrun;

import io.apiserver4j.core.GroupKind;

/**
 * The meta.k8s.io options type a {@code dryRun} value arrives in; it names the object of the
 * 422 Invalid error kube-apiserver returns for a bad value.
 */
public enum OptionsKind {
  /** POST (create). */
  CREATE_OPTIONS("CreateOptions"),
  /** PUT (update). */
  UPDATE_OPTIONS("UpdateOptions"),
  /** PATCH, including apply. */
  PATCH_OPTIONS("PatchOptions"),
  /** DELETE and DELETE-collection (query or body). */
  DELETE_OPTIONS("DeleteOptions");

  /** The group of the options kinds. */
  public static final String GROUP = "meta.k8s.io";

  private final String kind;

  OptionsKind(String kind) {
    this.kind = kind;
  }

  /**
   * The Kind.
   *
   * @return e.g. {@code CreateOptions}
   */
  public String kind() {
    return kind;
  }

  /**
   * The group and kind that Invalid errors on the options name.
   *
   * @return e.g. {@code CreateOptions.meta.k8s.io} when printed
   */
  public GroupKind groupKind() {
    return new GroupKind(GROUP, kind);
  }
}
