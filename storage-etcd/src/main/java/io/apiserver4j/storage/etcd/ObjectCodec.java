/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.DecodeException;
import io.apiserver4j.core.DecodeLimits;
import io.apiserver4j.core.FloatValue;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.ListValue;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.apiserver4j.storage.StoredObjects;
import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.etcd.jetcd.ByteSequence;

/**
 * Objects as etcd values: compact JSON without {@code metadata.resourceVersion}, which is the
 * key's mod revision and re-injected on every read (as kube-apiserver's etcd3 store does).
 */
final class ObjectCodec {
  private ObjectCodec() {}

  /**
   * The value to store, wrapping the encoder's fresh array without copying or hashing it (as a
   * {@link ByteSequence} would).
   *
   * @throws io.apiserver4j.core.errors.InternalErrorException for an object that would not read back
   */
  static ByteString encode(MapValue object) {
    StoredObjects.requireEncodable(object);
    return UnsafeByteOperations.unsafeWrap(Json.writeBytes(withoutResourceVersion(object)));
  }

  /**
   * Whether {@code value} decodes from its encoding as an equal value. Only numbers change on the
   * way (a float with an integral value is written as an integer, as Go writes it), so a tree
   * without floats reads back as it is.
   */
  static boolean readsBackEqual(Value value) {
    if (value instanceof MapValue m) {
      for (int i = 0; i < m.size(); i++) {
        if (!readsBackEqual(m.valueAt(i))) {
          return false;
        }
      }
      return true;
    }
    if (value instanceof ListValue l) {
      for (Value item : l.items()) {
        if (!readsBackEqual(item)) {
          return false;
        }
      }
      return true;
    }
    return !(value instanceof FloatValue);
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
   * @throws io.apiserver4j.core.errors.InternalErrorException if the value is not a JSON object
   */
  static StoredObject decode(ObjectKey key, ByteSequence value, long revision) {
    return StoredObjects.stored(key, decodeObject(key, value), revision);
  }

  static StoredObject decode(ObjectKey key, ByteString value, long revision) {
    return StoredObjects.stored(key, decodeObject(key, value.toByteArray()), revision);
  }

  static MapValue decodeObject(ObjectKey key, ByteSequence value) {
    return decodeObject(key, value.getBytes());
  }

  private static MapValue decodeObject(ObjectKey key, byte[] value) {
    Value v;
    try {
      v = Json.read(value, DecodeLimits.DEFAULT);
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
