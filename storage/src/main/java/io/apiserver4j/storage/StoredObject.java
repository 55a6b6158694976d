/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.util.Objects;

/**
 * An object as a {@link Store} returns it: the key, the object, and the revision at which this
 * state was written (for a deleted object returned by {@link Store#delete}, the deletion
 * revision). The object's {@code metadata.resourceVersion} always equals
 * {@code Long.toString(resourceVersion)}.
 *
 * <p>A store may keep the object encoded (the in-memory store holds compact JSON) and decode it
 * on {@link #object()}; {@link #writeJson} then copies the encoded bytes without decoding, which
 * is what lets a list of many objects be streamed cheaply. Immutable and thread-safe; equality
 * is by key, revision and object, as for a record.
 */
public final class StoredObject {
  private final ObjectKey key;
  private final long resourceVersion;
  /** The decoded object when the store keeps it as a tree; null when it is kept encoded. */
  private final MapValue object;
  private final CompactObject compact;
  /** The last decoded tree of {@link #compact}, kept only while someone else holds it. */
  private volatile WeakReference<MapValue> decoded;

  /**
   * @param key where the object is stored
   * @param object the object, with {@code metadata.resourceVersion} set by the store
   * @param resourceVersion the store revision of this state, always positive
   */
  public StoredObject(ObjectKey key, MapValue object, long resourceVersion) {
    this(key, requireNonNull(object, "object"), null, resourceVersion);
  }

  private StoredObject(ObjectKey key, MapValue object, CompactObject compact,
      long resourceVersion) {
    this.key = requireNonNull(key, "key");
    if (resourceVersion <= 0) {
      throw new IllegalArgumentException("resourceVersion must be positive: " + resourceVersion);
    }
    this.object = object;
    this.compact = compact;
    this.resourceVersion = resourceVersion;
  }

  /** A state kept encoded; {@code decoded}, if not null, is its tree (shared while it lives). */
  static StoredObject compact(ObjectKey key, CompactObject compact, long resourceVersion,
      MapValue decoded) {
    StoredObject o = new StoredObject(key, null, compact, resourceVersion);
    if (decoded != null) {
      o.decoded = new WeakReference<>(decoded);
    }
    return o;
  }

  /** Remembers {@code tree} as the decoded object while someone holds it. */
  void remember(MapValue tree) {
    decoded = new WeakReference<>(tree);
  }

  /** The object if it is at hand without decoding, else null. */
  MapValue objectIfDecoded() {
    if (object != null) {
      return object;
    }
    WeakReference<MapValue> ref = decoded;
    return ref == null ? null : ref.get();
  }

  /** The encoded form, or null when this state is held as a tree. */
  CompactObject compactForm() {
    return compact;
  }

  /**
   * Where the object is stored.
   *
   * @return the key
   */
  public ObjectKey key() {
    return key;
  }

  /**
   * The store revision of this state.
   *
   * @return the revision, always positive
   */
  public long resourceVersion() {
    return resourceVersion;
  }

  /**
   * The object, with {@code metadata.resourceVersion} set by the store.
   *
   * @return the object
   */
  public MapValue object() {
    if (object != null) {
      return object;
    }
    WeakReference<MapValue> ref = decoded;
    MapValue tree = ref == null ? null : ref.get();
    if (tree == null) {
      tree = compact.decode(resourceVersion);
      decoded = new WeakReference<>(tree);
    }
    return tree;
  }

  /** How the top-level {@code apiVersion} and {@code kind} are written by {@link #writeJson}. */
  public enum TypeMeta {
    /** As the object has them. */
    KEEP,
    /** Left out, as kube writes the items of a built-in kind's list. */
    OMIT
  }

  /**
   * Writes the object as compact JSON, byte for byte what {@link Json#write} writes for
   * {@link #object()} (without the top-level {@code apiVersion} and {@code kind} with
   * {@link TypeMeta#OMIT}). Does not close {@code out}.
   *
   * @param out the stream to write to
   * @param typeMeta whether the top-level {@code apiVersion} and {@code kind} are written
   * @throws java.io.UncheckedIOException when writing fails
   */
  public void writeJson(OutputStream out, TypeMeta typeMeta) {
    requireNonNull(out, "out");
    requireNonNull(typeMeta, "typeMeta");
    try {
      if (compact != null && compact.write(out, resourceVersion, typeMeta)) {
        return;
      }
      MapValue tree = object();
      if (typeMeta == TypeMeta.OMIT) {
        tree = tree.without("apiVersion").without("kind");
      }
      try (com.fasterxml.jackson.core.JsonGenerator g = Json.generator(out)) {
        Json.writeValue(g, tree);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * {@code metadata.resourceVersion} as kube-apiserver renders it.
   *
   * @return the revision in decimal
   */
  public String resourceVersionString() {
    return Long.toString(resourceVersion);
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof StoredObject s && s.resourceVersion == resourceVersion
        && s.key.equals(key) && s.object().equals(object()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(key, object(), resourceVersion);
  }

  @Override
  public String toString() {
    return "StoredObject[key=" + key + ", object=" + object() + ", resourceVersion="
        + resourceVersion + "]";
  }
}
