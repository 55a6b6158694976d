/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

import io.apiserver4j.core.BooleanValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of {@code metadata.ownerReferences}; {@code controller} and
 * {@code blockOwnerDeletion} are null when absent, as kube's pointers are nil, so that two
 * references compare equal exactly when kube's {@code reflect.DeepEqual} says so.
 */
record OwnerReference(String apiVersion, String kind, String name, String uid,
    Boolean controller, Boolean blockOwnerDeletion) {

  boolean blocks() {
    return Boolean.TRUE.equals(blockOwnerDeletion);
  }

  /** The owner references of {@code object}, in order. */
  static List<OwnerReference> of(MapValue object) {
    List<OwnerReference> out = new ArrayList<>();
    for (Value v : Nested.list(object, "metadata", "ownerReferences")) {
      if (v instanceof MapValue m) {
        out.add(new OwnerReference(Nested.str(m, "apiVersion"), Nested.str(m, "kind"),
            Nested.str(m, "name"), Nested.str(m, "uid"), bool(m, "controller"),
            bool(m, "blockOwnerDeletion")));
      }
    }
    return out;
  }

  private static Boolean bool(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v instanceof BooleanValue b ? b.value() : null;
  }
}
