/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.patch;

/** The schema of values nothing is known about. */
enum UnknownPatchSchema implements PatchSchema {
  INSTANCE;

  @Override
  public PatchField field(String name) {
    return PatchField.unknown();
  }

  @Override
  public PatchSchema items() {
    return this;
  }
}
