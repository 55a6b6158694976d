/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.storage.StoredObject;
import java.util.Objects;
import java.util.Optional;

/**
 * One watch event as kube-apiserver sends it: {@code type} is {@code ADDED}, {@code MODIFIED},
 * {@code DELETED}, {@code BOOKMARK} or {@code ERROR}; {@code object} is the object (for a
 * bookmark, an object carrying only its kind and {@code metadata.resourceVersion}; for an error,
 * a {@code Status}).
 *
 * <p>An event whose object is served as stored may carry its {@link StoredObject}, which a front
 * end can write from its stored bytes; {@link #object()} then decodes it on first use.
 * Thread-safe; equality is by type and object, as for a record.
 */
public final class ApiWatchEvent {
  private final String type;
  private final StoredObject stored;
  private volatile MapValue object;

  /**
   * @param type the event type
   * @param object the event's object
   */
  public ApiWatchEvent(String type, MapValue object) {
    this.type = requireNonNull(type, "type");
    this.object = requireNonNull(object, "object");
    this.stored = null;
  }

  private ApiWatchEvent(String type, StoredObject stored) {
    this.type = requireNonNull(type, "type");
    this.stored = requireNonNull(stored, "stored");
  }

  /**
   * An event whose object is {@code stored} exactly as the store returned it (no conversion,
   * defaulting or other change on the way out).
   */
  public static ApiWatchEvent of(String type, StoredObject stored) {
    return new ApiWatchEvent(type, stored);
  }

  /** The event type. */
  public String type() {
    return type;
  }

  /** The event's object. */
  public MapValue object() {
    MapValue o = object;
    if (o == null) {
      o = stored.object();
      object = o;
    }
    return o;
  }

  /** The stored object the event's object is, when it is one as stored. */
  public Optional<StoredObject> storedObject() {
    return Optional.ofNullable(stored);
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof ApiWatchEvent e && e.type.equals(type)
        && e.object().equals(object()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(type, object());
  }

  @Override
  public String toString() {
    return "ApiWatchEvent[type=" + type + ", object=" + object() + "]";
  }
}
