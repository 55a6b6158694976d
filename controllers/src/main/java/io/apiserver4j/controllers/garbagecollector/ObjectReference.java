/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.controllers.garbagecollector;

/**
 * The identity of a graph node (kube's {@code objectReference}): an owner reference's
 * coordinates and the namespace ("" for cluster-scoped objects, or for an owner reference not
 * yet resolved, the namespace of the dependent that made it).
 */
record ObjectReference(String apiVersion, String kind, String name, String uid,
    String namespace) {

  static ObjectReference of(OwnerReference ref, String namespace) {
    return new ObjectReference(ref.apiVersion(), ref.kind(), ref.name(), ref.uid(), namespace);
  }

  ObjectReference withNamespace(String ns) {
    return new ObjectReference(apiVersion, kind, name, uid, ns);
  }

  /** kube's {@code objectReference.String()}, as event messages show it. */
  @Override
  public String toString() {
    return "[" + apiVersion + "/" + kind + ", namespace: " + namespace + ", name: " + name
        + ", uid: " + uid + "]";
  }
}
