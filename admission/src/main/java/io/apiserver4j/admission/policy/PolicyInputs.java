/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.admission.policy;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.List;

/** The {@code namespaceObject} value, shaped as kube builds it. */
final class PolicyInputs {
  private static final List<String> NAMESPACE_META = List.of("name", "generateName",
      "namespace", "uid", "resourceVersion", "generation", "creationTimestamp",
      "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "finalizers");

  private PolicyInputs() {}

  /**
   * kube's {@code CreateNamespaceObject}: the namespace's spec, status and the metadata fields
   * policies may read (no managedFields or owner references).
   */
  static Value namespaceObject(MapValue namespace) {
    MapValue.Builder out = MapValue.builder(3);
    Value metaValue = namespace.getOrNull("metadata");
    if (metaValue instanceof MapValue meta) {
      MapValue.Builder m = MapValue.builder(NAMESPACE_META.size());
      for (String key : NAMESPACE_META) {
        Value v = meta.getOrNull(key);
        if (v != null) {
          m.put(key, v);
        }
      }
      out.put("metadata", m.build());
    }
    for (String key : List.of("spec", "status")) {
      Value v = namespace.getOrNull(key);
      if (v != null) {
        out.put(key, v);
      }
    }
    return out.build();
  }

  static boolean isNamespace(GroupVersionKind k) {
    return k.group().isEmpty() && k.version().equals("v1") && k.kind().equals("Namespace");
  }

}
