/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.kubeapi;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.GroupVersionKind;
import io.apiserver4j.core.GroupVersionResource;
import java.util.List;
import java.util.Optional;

/**
 * One resource a Kubernetes 1.36 kube-apiserver serves by default, as its discovery documents
 * describe it.
 *
 * @param kind the group, version and kind (the version is the one 1.36 serves, e.g. autoscaling
 *     has one entry for v2 and one for v1)
 * @param plural the resource name, e.g. {@code deployments}
 * @param singular the singular name, e.g. {@code deployment}
 * @param listKind the kind of its lists
 * @param namespaced whether objects live in namespaces
 * @param verbs the verbs of the resource itself, sorted as discovery lists them
 * @param shortNames e.g. {@code deploy}
 * @param categories e.g. {@code all}
 * @param storageVersionHash the hash discovery shows; empty for resources without storage
 *     (bindings, the review kinds, componentstatuses)
 * @param schemaType the name of the kind's type in {@link KubeApi#schema()} and in
 *     {@link KubeApi#openApiDefinitions()}, e.g. {@code io.k8s.api.apps.v1.Deployment}
 * @param subresources its subresources, sorted by name
 */
public record KubeResource(GroupVersionKind kind, String plural, String singular,
    String listKind, boolean namespaced, List<String> verbs, List<String> shortNames,
    List<String> categories, String storageVersionHash, String schemaType,
    List<KubeSubresource> subresources) {

  /**
   * Checks that no component is null and copies the lists.
   *
   * @throws NullPointerException when a component is null
   * @param kind see the record component
   * @param plural see the record component
   * @param singular see the record component
   * @param listKind see the record component
   * @param namespaced see the record component
   * @param verbs see the record component
   * @param shortNames see the record component
   * @param categories see the record component
   * @param storageVersionHash see the record component
   * @param schemaType see the record component
   * @param subresources see the record component
   */
  public KubeResource {
    requireNonNull(kind, "kind");
    requireNonNull(plural, "plural");
    requireNonNull(singular, "singular");
    requireNonNull(listKind, "listKind");
    verbs = List.copyOf(verbs);
    shortNames = List.copyOf(shortNames);
    categories = List.copyOf(categories);
    requireNonNull(storageVersionHash, "storageVersionHash");
    requireNonNull(schemaType, "schemaType");
    subresources = List.copyOf(subresources);
  }

  /** {@return the endpoint: group, version and plural} */
  public GroupVersionResource resource() {
    return new GroupVersionResource(kind.group(), kind.version(), plural);
  }

  /**
   * {@return the subresource called {@code name}, if served}
   *
   * @param name the subresource name, e.g. {@code status}
   */
  public Optional<KubeSubresource> subresource(String name) {
    return subresources.stream().filter(s -> s.name().equals(name)).findFirst();
  }
}
