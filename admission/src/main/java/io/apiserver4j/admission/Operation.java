/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission;

/**
 * The operation an admission request is for, as kube-apiserver names them ({@code CREATE},
 * {@code UPDATE}, {@code DELETE}, {@code CONNECT}).
 *
 * <p>A PATCH is admitted as {@link #UPDATE}, or as {@link #CREATE} when it creates the object
 * (apply to a missing object), exactly as kube-apiserver does.
 */
public enum Operation {
  /** A create (POST, or an apply that creates). */
  CREATE,
  /** An update, patch or apply of an existing object. */
  UPDATE,
  /** A delete, also of a collection item. */
  DELETE,
  /** A connect to a proxy, exec, attach or port-forward subresource. */
  CONNECT;

  /**
   * The name on the wire, e.g. in an AdmissionReview.
   *
   * @return e.g. {@code CREATE}
   */
  public String wireName() {
    return name();
  }

  /**
   * Parses a wire name ({@code CREATE}, ...).
   *
   * @throws IllegalArgumentException naming the value when it is not an operation
   * @param name the wire name
   * @return the operation
   */
  public static Operation fromWireName(String name) {
    for (Operation op : values()) {
      if (op.name().equals(name)) {
        return op;
      }
    }
    throw new IllegalArgumentException("unknown admission operation \"" + name
        + "\"; expected one of CREATE, UPDATE, DELETE, CONNECT");
  }
}
