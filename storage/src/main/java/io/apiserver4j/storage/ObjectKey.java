/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

/**
 * Identifies one stored object: its API group, resource (plural, lower case), namespace and name.
 *
 * <p>The namespace is empty for cluster-scoped resources. No component may contain {@code /}
 * (Kubernetes names and namespaces never do), because backends build hierarchical keys from
 * them; resource and name must not be empty.
 *
 * @param group the API group, empty for the core group
 * @param resource the resource plural, e.g. {@code configmaps}
 * @param namespace the namespace, empty for cluster-scoped objects
 * @param name the object name
 */
public record ObjectKey(String group, String resource, String namespace, String name) {
  /**
   * Checks the components.
   *
   * @param group see the record component
   * @param resource see the record component
   * @param namespace see the record component
   * @param name see the record component
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when a component contains {@code /}, or a required one is empty
   */
  public ObjectKey {
    requireNonNull(group, "group");
    requireNonNull(resource, "resource");
    requireNonNull(namespace, "namespace");
    requireNonNull(name, "name");
    Keys.checkComponent("group", group, true);
    Keys.checkComponent("resource", resource, false);
    Keys.checkComponent("namespace", namespace, true);
    Keys.checkComponent("name", name, false);
  }

  /**
   * A key for a namespaced object.
   *
   * @param group the API group, empty for the core group
   * @param resource the resource plural
   * @param namespace the namespace
   * @param name the object name
   * @return the key
   */
  public static ObjectKey namespaced(String group, String resource, String namespace, String name) {
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException("namespace must not be empty for a namespaced key");
    }
    return new ObjectKey(group, resource, namespace, name);
  }

  /**
   * A key for a cluster-scoped object.
   *
   * @param group the API group, empty for the core group
   * @param resource the resource plural
   * @param name the object name
   * @return the key, with an empty namespace
   */
  public static ObjectKey clusterScoped(String group, String resource, String name) {
    return new ObjectKey(group, resource, "", name);
  }

  /**
   * The collection holding this object (its namespace, or the whole resource if cluster-scoped).
   *
   * @return the collection
   */
  public CollectionKey collection() {
    return new CollectionKey(group, resource, namespace);
  }

  /**
   * The group-qualified resource as kube-apiserver prints it in messages: {@code configmaps}
   * for the core group, {@code deployments.apps} otherwise.
   *
   * @return the group-qualified resource
   */
  public String groupResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  /**
   * The key relative to the resource: {@code namespace/name}, or {@code name} when cluster-scoped.
   * Sorting these strings by code point gives kube-apiserver's list order.
   *
   * @return the relative key
   */
  public String relativeKey() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /**
   * The etcd-style key kube-apiserver would use and print in storage errors, e.g.
   * {@code /registry/configmaps/default/x} or {@code /registry/example.com/widgets/ns/w}.
   *
   * @return the storage key
   */
  public String storageKey() {
    return Keys.resourcePrefix(group, resource) + relativeKey();
  }

  @Override
  public String toString() {
    return storageKey();
  }
}
