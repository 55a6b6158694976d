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
  public StatusDetails {
    requireNonNull(name, "name");
    requireNonNull(group, "group");
    requireNonNull(kind, "kind");
    requireNonNull(uid, "uid");
    causes = List.copyOf(causes);
  }

  public static StatusDetails of(String name, String group, String kind) {
    return new StatusDetails(name, group, kind, "", List.of(), 0);
  }

  public StatusDetails withCauses(List<StatusCause> newCauses) {
    return new StatusDetails(name, group, kind, uid, newCauses, retryAfterSeconds);
  }

  public StatusDetails withRetryAfterSeconds(int seconds) {
    return new StatusDetails(name, group, kind, uid, causes, seconds);
  }

  public StatusDetails withUid(String newUid) {
    return new StatusDetails(name, group, kind, newUid, causes, retryAfterSeconds);
  }

  boolean isEmpty() {
    return name.isEmpty() && group.isEmpty() && kind.isEmpty() && uid.isEmpty() && causes.isEmpty()
        && retryAfterSeconds == 0;
  }
}
