/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.StringValue;
import io.apiserver4j.core.Value;
import java.util.Optional;

/**
 * Conditions a write checks against the stored object atomically, like kube's
 * {@code storage.Preconditions}: the object's {@code metadata.uid} and/or
 * {@code metadata.resourceVersion} must equal the given strings. A failed check is a 409
 * Conflict built by {@link StoreErrors#preconditionFailed}.
 *
 * @param uid the required {@code metadata.uid}, if any
 * @param resourceVersion the required {@code metadata.resourceVersion}, compared as a string as
 *     kube does, if any
 */
public record Preconditions(Optional<String> uid, Optional<String> resourceVersion) {
  private static final Preconditions NONE = new Preconditions(Optional.empty(), Optional.empty());

  /**
   * Checks that no component is null.
   *
   * @param uid see the record component
   * @param resourceVersion see the record component
   * @throws NullPointerException when a component is null
   */
  public Preconditions {
    requireNonNull(uid, "uid");
    requireNonNull(resourceVersion, "resourceVersion");
  }

  /**
   * No conditions.
   *
   * @return the shared empty preconditions
   */
  public static Preconditions none() {
    return NONE;
  }

  /**
   * Requires {@code metadata.uid} to equal {@code uid}.
   *
   * @param uid the required uid
   * @return the preconditions
   */
  public static Preconditions ofUid(String uid) {
    return new Preconditions(Optional.of(requireNonNull(uid, "uid")), Optional.empty());
  }

  /**
   * Requires {@code metadata.resourceVersion} to equal {@code resourceVersion}.
   *
   * @param resourceVersion the required resourceVersion string
   * @return the preconditions
   */
  public static Preconditions ofResourceVersion(String resourceVersion) {
    return new Preconditions(Optional.empty(),
        Optional.of(requireNonNull(resourceVersion, "resourceVersion")));
  }

  /**
   * Adds a resourceVersion condition, replacing any.
   *
   * @param rv the required resourceVersion string
   * @return new preconditions
   */
  public Preconditions withResourceVersion(String rv) {
    return new Preconditions(uid, Optional.of(requireNonNull(rv, "rv")));
  }

  /**
   * Adds a uid condition, replacing any.
   *
   * @param u the required uid
   * @return new preconditions
   */
  public Preconditions withUid(String u) {
    return new Preconditions(Optional.of(requireNonNull(u, "u")), resourceVersion);
  }

  /**
   * Whether there is no condition.
   *
   * @return true when neither uid nor resourceVersion is required
   */
  public boolean isEmpty() {
    return uid.isEmpty() && resourceVersion.isEmpty();
  }

  /**
   * Checks the conditions against the current state of {@code current}.
   *
   * @throws io.apiserver4j.core.errors.ConflictException if a condition does not hold
   * @param current the stored state
   */
  public void check(StoredObject current) {
    requireNonNull(current, "current");
    if (isEmpty()) {
      return;
    }
    MapValue meta = current.object().getOrNull("metadata") instanceof MapValue m ? m : MapValue.empty();
    if (uid.isPresent()) {
      String actual = stringField(meta, "uid");
      if (!uid.get().equals(actual)) {
        throw StoreErrors.preconditionFailed(current.key(),
            "Precondition failed: UID in precondition: " + uid.get() + ", UID in object meta: " + actual);
      }
    }
    if (resourceVersion.isPresent()) {
      String actual = current.resourceVersionString();
      if (!resourceVersion.get().equals(actual)) {
        throw StoreErrors.preconditionFailed(current.key(),
            "Precondition failed: ResourceVersion in precondition: " + resourceVersion.get()
                + ", ResourceVersion in object meta: " + actual);
      }
    }
  }

  /**
   * Checks a state against an update: first that it is at the revision the caller expects (any,
   * with {@link Store#ANY_VERSION}), then these conditions, as every store's update does.
   *
   * @throws io.apiserver4j.core.errors.ConflictException with kube's optimistic-lock message if the
   *     revision differs, or as {@link #check} if a condition does not hold
   * @param current the stored state
   * @param expectedResourceVersion the revision the caller read, or {@link Store#ANY_VERSION}
   */
  public void checkUpdate(StoredObject current, long expectedResourceVersion) {
    requireNonNull(current, "current");
    checkExpectedRevision(current.key(), expectedResourceVersion, current.resourceVersion());
    check(current);
  }

  /**
   * Checks the {@code expectedResourceVersion} argument of
   * {@link Store#update(ObjectKey, MapValue, long, Preconditions)} before a store does any work.
   *
   * @throws IllegalArgumentException if it is negative (a programming error, not a client's)
   * @param expectedResourceVersion the argument
   */
  public static void requireValidExpectedRevision(long expectedResourceVersion) {
    if (expectedResourceVersion < 0) {
      throw new IllegalArgumentException(
          "expectedResourceVersion must not be negative: " + expectedResourceVersion);
    }
  }

  /**
   * The compare half of a compare-and-swap: the object at {@code key} is at
   * {@code actualRevision}, the caller expected {@code expectedResourceVersion}.
   *
   * @throws io.apiserver4j.core.errors.ConflictException with kube's optimistic-lock message unless
   *     they are equal or {@code expectedResourceVersion} is {@link Store#ANY_VERSION}
   * @param key the object, named in the message
   * @param expectedResourceVersion the revision the caller expects
   * @param actualRevision the object's revision
   */
  public static void checkExpectedRevision(ObjectKey key, long expectedResourceVersion,
      long actualRevision) {
    if (expectedResourceVersion != Store.ANY_VERSION && actualRevision != expectedResourceVersion) {
      throw StoreErrors.conflict(key);
    }
  }

  /**
   * The revision a resourceVersion-only precondition names, so that a store can let its backend
   * compare revisions instead of reading the state first; 0 if there is a uid condition too, no
   * resourceVersion condition, or a version that is not the canonical decimal form of a revision
   * (no state matches that one, as kube compares the strings).
   *
   * @return the revision, or 0
   */
  public long requiredRevision() {
    if (uid.isPresent() || resourceVersion.isEmpty()) {
      return 0;
    }
    String rv = resourceVersion.get();
    if (rv.isEmpty() || rv.length() > 18 || rv.charAt(0) == '0') {
      return 0;
    }
    for (int i = 0; i < rv.length(); i++) {
      if (rv.charAt(i) < '0' || rv.charAt(i) > '9') {
        return 0;
      }
    }
    return Long.parseLong(rv);
  }

  private static String stringField(MapValue m, String key) {
    Value v = m.getOrNull(key);
    return v instanceof StringValue s ? s.value() : "";
  }
}
