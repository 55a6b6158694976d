/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.validation;

/** The garbage-collection finalizers kube-apiserver manages on delete. */
public final class Finalizers {
  /** Added by {@code propagationPolicy: Orphan}. */
  public static final String ORPHAN = "orphan";
  /** Added by {@code propagationPolicy: Foreground}. */
  public static final String FOREGROUND = "foregroundDeletion";

  private Finalizers() {}
}
