/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

/**
 * Identifies a set of stored objects of one resource: all of them (namespace empty, which for a
 * namespaced resource means all namespaces) or those of one namespace.
 *
 * @param group the API group, empty for the core group
 * @param resource the resource plural, e.g. {@code configmaps}
 * @param namespace the namespace to restrict to, or empty for all namespaces / cluster-scoped
 */
public record CollectionKey(String group, String resource, String namespace) {
  /**
   * Checks the components.
   *
   * @param group see the record component
   * @param resource see the record component
   * @param namespace see the record component
   * @throws NullPointerException when a component is null
   * @throws IllegalArgumentException when a component contains {@code /}, or a required one is empty
   */
  public CollectionKey {
    requireNonNull(group, "group");
    requireNonNull(resource, "resource");
    requireNonNull(namespace, "namespace");
    Keys.checkComponent("group", group, true);
    Keys.checkComponent("resource", resource, false);
    Keys.checkComponent("namespace", namespace, true);
  }

  /**
   * Every object of the resource, across all namespaces.
   *
   * @param group the API group, empty for the core group
   * @param resource the resource plural
   * @return the collection
   */
  public static CollectionKey all(String group, String resource) {
    return new CollectionKey(group, resource, "");
  }

  /**
   * The objects of the resource in one namespace.
   *
   * @param group the API group, empty for the core group
   * @param resource the resource plural
   * @param namespace the namespace; empty means all namespaces
   * @return the collection
   */
  public static CollectionKey inNamespace(String group, String resource, String namespace) {
    if (namespace.isEmpty()) {
      throw new IllegalArgumentException("namespace must not be empty; use all(group, resource)");
    }
    return new CollectionKey(group, resource, namespace);
  }

  /**
   * Whether the collection covers every namespace (or is a cluster-scoped resource).
   *
   * @return true when the namespace is empty
   */
  public boolean isAllNamespaces() {
    return namespace.isEmpty();
  }

  /**
   * Whether {@code key} belongs to this collection.
   *
   * @param key the object key
   * @return true when group and resource match and, for one namespace, the namespace does
   */
  public boolean contains(ObjectKey key) {
    return key.resource().equals(resource) && key.group().equals(group)
        && (namespace.isEmpty() || namespace.equals(key.namespace()));
  }

  /**
   * The same resource without the namespace restriction.
   *
   * @return the all-namespaces collection; this one when it already is
   */
  public CollectionKey allNamespaces() {
    return namespace.isEmpty() ? this : new CollectionKey(group, resource, "");
  }

  /**
   * The key of the object {@code name} in this collection's namespace.
   *
   * @param name the object name
   * @return the object key
   */
  public ObjectKey object(String name) {
    return new ObjectKey(group, resource, namespace, name);
  }

  /**
   * The group-qualified resource as kube-apiserver prints it.
   *
   * @return e.g. {@code deployments.apps}, or {@code configmaps} for the core group
   */
  public String groupResource() {
    return group.isEmpty() ? resource : resource + "." + group;
  }

  /**
   * The prefix of {@link ObjectKey#relativeKey()} shared by the members: {@code namespace/}, or
   * empty for all namespaces. Continue tokens encode start keys relative to it, as kube does.
   *
   * @return the prefix
   */
  public String relativePrefix() {
    return namespace.isEmpty() ? "" : namespace + "/";
  }

  /**
   * The etcd-style key prefix kube-apiserver would range over.
   *
   * @return e.g. {@code /registry/pods/ns/}
   */
  public String storageKeyPrefix() {
    return Keys.resourcePrefix(group, resource) + relativePrefix();
  }

  @Override
  public String toString() {
    return storageKeyPrefix();
  }
}
