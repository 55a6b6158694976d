/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;

/**
 * What a {@link Manager} returns: the new ownership, and the new object unless an apply changed
 * nothing (where kube's managers return a nil object).
 */
public sealed interface ManagerResult permits ManagerResult.Changed, ManagerResult.Unchanged {

  /** The ownership after the write. */
  Managed managed();

  /**
   * The object to persist, managedFields removed, with its new ownership.
   *
   * @param object the new object without managedFields
   * @param managed the ownership to encode into it
   */
  record Changed(MapValue object, Managed managed) implements ManagerResult {
    public Changed {
      requireNonNull(object, "object");
      requireNonNull(managed, "managed");
    }
  }

  /**
   * An apply that left the live object as it was; ownership may still have changed (the applier
   * now owns the fields it set to their current values).
   *
   * @param managed the ownership after the apply
   */
  record Unchanged(Managed managed) implements ManagerResult {
    public Unchanged {
      requireNonNull(managed, "managed");
    }
  }
}
