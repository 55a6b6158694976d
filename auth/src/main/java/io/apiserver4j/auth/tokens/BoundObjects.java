/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.auth.tokens;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.Store;
import java.util.Optional;

/**
 * Reads the objects a token names (its ServiceAccount and bound Pod, Secret or Node) straight
 * from the store, so that a deleted or recreated object revokes its tokens on the next request.
 */
final class BoundObjects {
  private final Store store;

  BoundObjects(Store store) {
    this.store = store;
  }

  Optional<MapValue> serviceAccount(String namespace, String name) {
    return get(ObjectKey.namespaced("", "serviceaccounts", namespace, name));
  }

  Optional<MapValue> pod(String namespace, String name) {
    return get(ObjectKey.namespaced("", "pods", namespace, name));
  }

  Optional<MapValue> secret(String namespace, String name) {
    return get(ObjectKey.namespaced("", "secrets", namespace, name));
  }

  Optional<MapValue> node(String name) {
    return get(ObjectKey.clusterScoped("", "nodes", name));
  }

  private Optional<MapValue> get(ObjectKey key) {
    if (key.name().isEmpty() || (key.namespace().isEmpty()
        && !key.resource().equals("nodes"))) {
      return Optional.empty();
    }
    return store.get(key).map(StoredObject::object);
  }
}
