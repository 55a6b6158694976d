/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.Status;

/**
 * One event of a {@link Watch}: an object change, a bookmark, or an error that ends the watch.
 */
public sealed interface WatchEvent
    permits WatchEvent.ObjectChange, WatchEvent.Bookmark, WatchEvent.Failure {

  /** Watch event types as they appear on the wire. */
  enum Type {
    /** An object appeared or started matching. */
    ADDED,
    /** An object changed. */
    MODIFIED,
    /** An object disappeared or stopped matching. */
    DELETED,
    /** Progress without a change. */
    BOOKMARK,
    /** The watch failed. */
    ERROR
  }

  /**
   * The wire type of this event.
   *
   * @return the type
   */
  Type type();

  /**
   * An object appeared (or started matching the selectors), changed, or disappeared (or stopped
   * matching). For DELETED the object is its last state carrying the revision of the event.
   *
   * @param type ADDED, MODIFIED or DELETED
   * @param object the object; {@code object.resourceVersion()} is the event's revision
   */
  record ObjectChange(Type type, StoredObject object) implements WatchEvent {
    /**
     * Checks that the type is a change type.
     *
     * @param type see the record component
     * @param object see the record component
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException for BOOKMARK or ERROR
     */
    public ObjectChange {
      requireNonNull(type, "type");
      requireNonNull(object, "object");
      if (type != Type.ADDED && type != Type.MODIFIED && type != Type.DELETED) {
        throw new IllegalArgumentException("not an object change type: " + type);
      }
    }

    /**
     * The revision of the event.
     *
     * @return the object's resourceVersion
     */
    public long resourceVersion() {
      return object.resourceVersion();
    }
  }

  /**
   * Progress: every change up to {@code resourceVersion} that the watch selects has been
   * delivered. The HTTP layer renders it as an object with only
   * {@code metadata.resourceVersion} (and, if {@code initialEventsEnd}, the annotation
   * {@code k8s.io/initial-events-end: "true"}).
   *
   * @param resourceVersion the revision the watch has caught up to
   * @param initialEventsEnd whether this marks the end of the initial events
   */
  record Bookmark(long resourceVersion, boolean initialEventsEnd) implements WatchEvent {
    @Override
    public Type type() {
      return Type.BOOKMARK;
    }
  }

  /**
   * The watch failed (e.g. 410 Expired: its start revision was compacted while it was set up);
   * no events follow.
   *
   * @param status the error, rendered as the ERROR event's object
   */
  record Failure(Status status) implements WatchEvent {
    /**
     * Checks that the status is not null.
     *
     * @param status see the record component
     * @throws NullPointerException when it is null
     */
    public Failure {
      requireNonNull(status, "status");
    }

    @Override
    public Type type() {
      return Type.ERROR;
    }
  }
}
