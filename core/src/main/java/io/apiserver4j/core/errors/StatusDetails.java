/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.core.errors;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * Extra information in a {@link Status}. Empty strings and zero mean "not set" and are omitted
 * on the wire, as Go's {@code omitempty} does.
 *
 * @param kind the resource plural or the Kind, depending on the error (as kube-apiserver does)
 */
public record StatusDetails(
    String name, String group, String kind, String uid, List<StatusCause> causes,
    int retryAfterSeconds) {
  /**
   * Checks that no component is null and copies the causes.
   *
   * @param name see the record component
   * @param group see the record component
   * @param kind see the record component
   * @param uid see the record component
   * @param causes see the record component
   * @param retryAfterSeconds see the record component
   * @throws NullPointerException when a component is null
   */
  public StatusDetails {
    requireNonNull(name, "name");
    requireNonNull(group, "group");
    requireNonNull(kind, "kind");
    requireNonNull(uid, "uid");
    causes = List.copyOf(causes);
  }

  /**
   * Details naming an object, without uid, causes or retry hint.
   *
   * @param name the object name
   * @param group the API group
   * @param kind the resource or kind
   * @return the details
   */
  public static StatusDetails of(String name, String group, String kind) {
    return new StatusDetails(name, group, kind, "", List.of(), 0);
  }

  /**
   * A copy with other causes.
   *
   * @param newCauses the causes
   * @return the new details
   */
  public StatusDetails withCauses(List<StatusCause> newCauses) {
    return new StatusDetails(name, group, kind, uid, newCauses, retryAfterSeconds);
  }

  /**
   * A copy with a retry hint.
   *
   * @param seconds the seconds, 0 for none
   * @return the new details
   */
  public StatusDetails withRetryAfterSeconds(int seconds) {
    return new StatusDetails(name, group, kind, uid, causes, seconds);
  }

  /**
   * A copy with an object uid.
   *
   * @param newUid the uid
   * @return the new details
   */
  public StatusDetails withUid(String newUid) {
    return new StatusDetails(name, group, kind, newUid, causes, retryAfterSeconds);
  }

  boolean isEmpty() {
    return name.isEmpty() && group.isEmpty() && kind.isEmpty() && uid.isEmpty() && causes.isEmpty()
        && retryAfterSeconds == 0;
  }
}
