/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.junit;

import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusReason;
import java.util.List;
import java.util.Optional;

/**
 * Assertions on kube-apiserver's answer to a request: its code and reason and, for a
 * server-side apply, the fields it conflicted on. Obtain from {@link ApiServerAssertions}.
 */
public final class StatusAssert {
  static final String CONFLICT_CAUSE = "FieldManagerConflict";

  private final Optional<Status> failure;
  private final int code;
  private final String description;

  StatusAssert(Optional<Status> failure, int code, String description) {
    this.failure = failure;
    this.code = code;
    this.description = description;
  }

  /** Asserts the request succeeded. */
  public StatusAssert isSuccess() {
    if (failure.isPresent() && failure.get().outcome() == Status.Outcome.FAILURE) {
      throw new AssertionError("expected success but got " + failure.get().code() + " "
          + failure.get().reason().wireName() + ": " + failure.get().message());
    }
    return this;
  }

  /** Asserts the request failed with {@code reason} (and its usual code). */
  public StatusAssert hasReason(StatusReason reason) {
    Status s = requireFailure("a " + reason.wireName() + " failure");
    if (s.reason() != reason) {
      throw new AssertionError("expected " + reason.wireName() + " but got " + s.code() + " "
          + s.reason().wireName() + ": " + s.message());
    }
    return this;
  }

  /** Asserts the message equals {@code message}. */
  public StatusAssert hasMessage(String message) {
    Status s = requireFailure("a failure with message " + message);
    if (!s.message().equals(message)) {
      throw new AssertionError("expected message\n  " + message + "\nbut was\n  " + s.message());
    }
    return this;
  }

  /**
   * Asserts a server-side apply conflict (409 Conflict) with a conflict on {@code field} among
   * others; {@link ConflictAssert#with} then names the manager.
   */
  public ConflictAssert isConflictOn(String field) {
    hasReason(StatusReason.CONFLICT);
    List<StatusCause> causes = conflictCauses();
    List<StatusCause> on = causes.stream().filter(c -> c.field().equals(field)).toList();
    if (on.isEmpty()) {
      throw new AssertionError("expected a conflict on " + field + " but the conflicts are "
          + describe(causes) + " (" + failure.get().message() + ")");
    }
    return new ConflictAssert(this, field, on);
  }

  /** Asserts the apply conflicted on exactly these fields, in any order. */
  public StatusAssert isConflictOnlyOn(String... fields) {
    hasReason(StatusReason.CONFLICT);
    List<String> actual = conflictCauses().stream().map(StatusCause::field).distinct().sorted()
        .toList();
    List<String> expected = java.util.Arrays.stream(fields).distinct().sorted().toList();
    if (!actual.equals(expected)) {
      throw new AssertionError("expected conflicts on exactly " + expected + " but got "
          + describe(conflictCauses()));
    }
    return this;
  }

  private List<StatusCause> conflictCauses() {
    return failure.get().causes().stream().filter(c -> c.type().equals(CONFLICT_CAUSE)).toList();
  }

  private Status requireFailure(String expected) {
    if (failure.isEmpty() || failure.get().outcome() != Status.Outcome.FAILURE) {
      throw new AssertionError("expected " + expected + " but the " + description
          + " was a success (" + code + ")");
    }
    return failure.get();
  }

  static String describe(List<StatusCause> causes) {
    return causes.stream().map(c -> c.field() + " (" + c.message() + ")").toList().toString();
  }

  /** One field's conflict; {@link #and()} returns to the status. */
  public static final class ConflictAssert {
    private final StatusAssert status;
    private final String field;
    private final List<StatusCause> causes;

    ConflictAssert(StatusAssert status, String field, List<StatusCause> causes) {
      this.status = status;
      this.field = field;
      this.causes = causes;
    }

    /**
     * Asserts the field conflicted with {@code manager}: kube-apiserver's cause message is
     * {@code conflict with "manager"}, followed by {@code using <apiVersion>} when the manager
     * wrote another version and by the operation for an update.
     */
    public ConflictAssert with(String manager) {
      String prefix = "conflict with \"" + manager + "\"";
      if (causes.stream().noneMatch(c -> c.message().equals(prefix)
          || c.message().startsWith(prefix + " "))) {
        throw new AssertionError("expected the conflict on " + field + " to be with \"" + manager
            + "\" but it is " + describe(causes));
      }
      return this;
    }

    /** Another field's conflict of the same apply. */
    public ConflictAssert isConflictOn(String otherField) {
      return status.isConflictOn(otherField);
    }

    public StatusAssert and() {
      return status;
    }
  }
}
