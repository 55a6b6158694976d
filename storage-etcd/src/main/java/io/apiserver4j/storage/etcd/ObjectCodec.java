/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import io.etcd.jetcd.ByteSequence;

/**
 * Objects as etcd values: compact JSON without {@code metadata.resourceVersion}, which is the
 * key's mod revision and re-injected on every read (as kube-apiserver's etcd3 store does).
 */
final class ObjectCodec {
  private ObjectCodec() {}

  /** @throws io.apiserver4j.core.InternalErrorException for an object that would not read back */
  static ByteSequence encode(MapValue object) {
    StoredObjects.requireEncodable(object);
    return ByteSequence.from(Json.writeBytes(withoutResourceVersion(object)));
  }

  static MapValue withoutResourceVersion(MapValue object) {
    if (object.getOrNull("metadata") instanceof MapValue meta
        && meta.getOrNull("resourceVersion") != null) {
      return object.with("metadata", meta.without("resourceVersion"));
    }
    return object;
  }

  /**
   * The stored state of {@code key} from an etcd value written at {@code revision}.
   *
   * @throws io.apiserver4j.core.InternalErrorException if the value is not a JSON object
   */
  static StoredObject decode(ObjectKey key, ByteSequence value, long revision) {
    return StoredObjects.stored(key, decodeObject(key, value), revision);
  }

  static MapValue decodeObject(ObjectKey key, ByteSequence value) {
    Value v;
    try {
      v = Json.read(value.getBytes(), DecodeLimits.DEFAULT);
    } catch (DecodeException e) {
      throw StatusErrors.internal("cannot decode the stored object " + describe(key) + ": "
          + e.getMessage());
    }
    if (!(v instanceof MapValue m)) {
      throw StatusErrors.internal("the value stored for " + describe(key) + " is not a JSON object");
    }
    return m;
  }

  private static String describe(ObjectKey key) {
    return key.groupResource() + " \"" + key.relativeKey() + "\"";
  }
}
