package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;

/**
 * An object as a {@link Store} returns it: the key, the object, and the revision at which this
 * state was written (for a deleted object returned by {@link Store#delete}, the deletion
 * revision). The object's {@code metadata.resourceVersion} always equals
 * {@code Long.toString(resourceVersion)}.
 *
 * @param key where the object is stored
 * @param object the object, with {@code metadata.resourceVersion} set by the store
 * @param resourceVersion the store revision of this state, always positive
 */
public record StoredObject(ObjectKey key, MapValue object, long resourceVersion) {
  public StoredObject {
    requireNonNull(key, "key");
    requireNonNull(object, "object");
    if (resourceVersion <= 0) {
      throw new IllegalArgumentException("resourceVersion must be positive: " + resourceVersion);
    }
  }

  /** {@code metadata.resourceVersion} as kube-apiserver renders it. */
  public String resourceVersionString() {
    return Long.toString(resourceVersion);
  }
}
