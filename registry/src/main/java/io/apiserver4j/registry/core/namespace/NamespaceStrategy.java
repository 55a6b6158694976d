/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.registry.core.namespace;

import io.apiserver4j.apimachinery.validation.GroupRules;
import io.apiserver4j.apimachinery.validation.NameValidation;
import io.apiserver4j.apiserver.ResourceStrategy;
import io.apiserver4j.apiserver.SubresourceUpdate;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.Nested;
import io.apiserver4j.core.Value;
import io.apiserver4j.core.errors.FieldError;
import io.apiserver4j.fieldpath.FieldName;
import io.apiserver4j.fieldpath.FieldPath;
import io.apiserver4j.fieldpath.FieldSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * core/v1 Namespace (kube's pkg/registry/core/namespace): a DNS label name, the
 * {@code kubernetes.io/metadata.name} label ({@code SetDefaults_Namespace}), a new namespace is
 * {@code Active} with the {@code kubernetes} finalizer, an update keeps the stored finalizers
 * (they change through the finalize subresource), and {@code status.phase} is selectable.
 * {@code namespaces/finalize} is kube's {@code namespaceFinalizeStrategy}: it writes
 * {@code spec.finalizers} and metadata, keeps the stored status, and is validated as
 * {@code ValidateNamespaceFinalizeUpdate}.
 */
public final class NamespaceStrategy {
  /** kube's {@code standardFinalizers}: the finalizer names that need no domain. */
  private static final List<String> STANDARD_FINALIZERS =
      List.of("kubernetes", "orphan", "foregroundDeletion");

  private NamespaceStrategy() {}

  /** The Namespace strategy. */
  public static ResourceStrategy strategy() {
    return ResourceStrategy.builder()
        .nameValidation(NameValidation.DNS1123_LABEL)
        // kube's SetDefaults_Namespace: the immutable label selectors can rely on
        .defaulter(NamespaceStrategy::labelNamespaceName)
        .selectableFields("status.phase")
        .subresourceUpdate("finalize", finalizeRules())
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

  /** {@code namespaces/finalize}: the object as sent, with the stored status. */
  static SubresourceUpdate finalizeRules() {
    return new SubresourceUpdate((ns, old, now) -> {
      Value status = old.getOrNull("status");
      return status == null ? ns.without("status") : ns.with("status", status);
    }, NamespaceStrategy::validateFinalizers,
        FieldSet.of(FieldPath.of(new FieldName("status"))));
  }

  /** kube's {@code validateFinalizerName} of each of {@code spec.finalizers}. */
  static List<FieldError> validateFinalizers(MapValue ns, Optional<MapValue> old) {
    List<FieldError> errs = new ArrayList<>();
    List<String> finalizers = Meta.stringList(Nested.getOrNull(ns, "spec", "finalizers"));
    for (int i = 0; i < finalizers.size(); i++) {
      String name = finalizers.get(i);
      String path = "spec.finalizers[" + i + "]";
      GroupRules.qualifiedName(errs, path, name);
      if (!name.contains("/") && !STANDARD_FINALIZERS.contains(name)) {
        errs.add(FieldError.invalid(path, Value.of(name),
            "name is neither a standard finalizer name nor is it fully qualified"));
      }
    }
    return errs;
  }
}
