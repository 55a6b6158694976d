/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.namespace;

import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import java.util.List;

/**
 * core/v1 Namespace (kube's pkg/registry/core/namespace): a DNS label name, the
 * {@code kubernetes.io/metadata.name} label ({@code SetDefaults_Namespace}), a new namespace is
 * {@code Active} with the {@code kubernetes} finalizer, an update keeps the stored finalizers
 * (they change through the finalize subresource), and {@code status.phase} is selectable.
 */
public final class NamespaceStrategy {
  private NamespaceStrategy() {}

  /** The Namespace strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1123_LABEL)
        // kube's SetDefaults_Namespace: the immutable label selectors can rely on
        .defaulter(NamespaceStrategy::labelNamespaceName)
        .selectableFields("status.phase")
        .prepareForCreate((o, old) -> {
          MapValue r = Nested.set(o, MapValue.ofEntries("phase", Value.of("Active")), "status");
          List<String> fin = Meta.stringList(Nested.getOrNull(r, "spec", "finalizers"));
          if (!fin.contains("kubernetes")) {
            fin.add("kubernetes");
            r = Nested.set(r, ListValue.ofStrings(fin), "spec", "finalizers");
          }
          return r;
        })
        .prepareForUpdate((o, old) -> {
          Value fin = Nested.getOrNull(old.orElseThrow(), "spec", "finalizers");
          return fin == null ? Nested.remove(o, "spec", "finalizers")
              : Nested.set(o, fin, "spec", "finalizers");
        })
        .build();
  }

  /** Labels a named Namespace {@code kubernetes.io/metadata.name: <name>}, as kube does. */
  static MapValue labelNamespaceName(MapValue ns) {
    String name = Meta.metaString(ns, "name");
    return name.isEmpty() ? ns
        : Nested.set(ns, Value.of(name), "metadata", "labels", "kubernetes.io/metadata.name");
  }
}
