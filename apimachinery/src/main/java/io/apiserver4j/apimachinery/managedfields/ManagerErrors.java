/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apimachinery.managedfields;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;

/** How the chain words the errors kube's managers return. */
final class ManagerErrors {
  private ManagerErrors() {}

  /** A Go error that is no API error: kube answers 500 with no reason. */
  static StatusException plainError(String message) {
    return new StatusException(Status.failure(StatusReason.UNKNOWN, message));
  }

  /** Go's {@code GroupVersionKind.String()}: always {@code group/version, Kind=kind}. */
  static String gvkString(GroupVersionKind gvk) {
    return gvk.group() + "/" + gvk.version() + ", Kind=" + gvk.kind();
  }

  /** kube's {@code objectGVKNN}: {@code namespace/name; group/version, Kind=kind}. */
  static String objectGvknn(MapValue obj) {
    return Meta.metaString(obj, "namespace") + "/" + Meta.metaString(obj, "name") + "; "
        + gvkString(GroupVersionKind.of(Meta.string(obj, "apiVersion"),
            Meta.string(obj, "kind")));
  }
}
