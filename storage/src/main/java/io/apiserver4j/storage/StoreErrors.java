/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage;

import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.errors.AlreadyExistsException;
import io.apiserver4j.core.errors.BadRequestException;
import io.apiserver4j.core.errors.ConflictException;
import io.apiserver4j.core.GoStrings;
import io.apiserver4j.core.errors.GoneException;
import io.apiserver4j.core.errors.NotFoundException;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusCause;
import io.apiserver4j.core.errors.StatusDetails;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.core.errors.StatusReason;
import io.apiserver4j.core.errors.TimeoutException;
import java.util.List;

/**
 * The errors every {@link Store} reports, with the messages kube-apiserver produces after its
 * registry has interpreted the storage error ({@code storeerr.Interpret*Error}). Backends use
 * these factories so that all of them fail identically (the contract tests check the text).
 */
public final class StoreErrors {
  /** The message kube-apiserver uses for a failed compare-and-swap. */
  public static final String OPTIMISTIC_LOCK_MESSAGE =
      "the object has been modified; please apply your changes to the latest version and try again";

  /** etcd3's message for an expired continue token (a fresh token cannot be offered). */
  public static final String CONTINUE_EXPIRED_MESSAGE =
      "The provided continue parameter is too old to display a consistent list result. You can "
          + "start a new list without the continue parameter.";

  /** etcd3's message for an expired continue token when a token at the latest revision is offered. */
  public static final String INCONSISTENT_CONTINUE_MESSAGE =
      "The provided continue parameter is too old to display a consistent list result. You can "
          + "start a new list without the continue parameter, or use the continue token in this "
          + "response to retrieve the remainder of the results. Continuing with the provided token "
          + "results in an inconsistent list - objects that were created, modified, or deleted "
          + "between the time the first chunk was returned and now may show up in the list.";

  /** etcd3's message for an exact list at a compacted revision. */
  public static final String LIST_EXPIRED_MESSAGE =
      "The resourceVersion for the provided list is too old.";

  /** The cause type kube attaches to a too-large resource version. */
  public static final String CAUSE_RESOURCE_VERSION_TOO_LARGE = "ResourceVersionTooLarge";

  private StoreErrors() {}

  /**
   * 404: {@code configmaps "x" not found}.
   *
   * @param key the missing object
   * @return the exception, with details naming the object
   */
  public static NotFoundException notFound(ObjectKey key) {
    requireNonNull(key, "key");
    return new NotFoundException(Status.failure(StatusReason.NOT_FOUND,
        key.groupResource() + " " + GoStrings.quote(key.name()) + " not found", details(key)));
  }

  /**
   * 409 AlreadyExists: {@code configmaps "x" already exists}.
   *
   * @param key the existing object
   * @return the exception
   */
  public static AlreadyExistsException alreadyExists(ObjectKey key) {
    requireNonNull(key, "key");
    return new AlreadyExistsException(Status.failure(StatusReason.ALREADY_EXISTS,
        key.groupResource() + " " + GoStrings.quote(key.name()) + " already exists",
        details(key)));
  }

  /**
   * 409 Conflict for a compare-and-swap that lost: kube's optimistic-lock message.
   *
   * @param key the object
   * @return the exception
   */
  public static ConflictException conflict(ObjectKey key) {
    return conflict(key, OPTIMISTIC_LOCK_MESSAGE);
  }

  /**
   * 409 Conflict: {@code Operation cannot be fulfilled on <gr> "<name>": <reason>}.
   *
   * @param key the object
   * @param reason the text after the colon
   * @return the exception
   */
  public static ConflictException conflict(ObjectKey key, String reason) {
    requireNonNull(key, "key");
    requireNonNull(reason, "reason");
    return new ConflictException(Status.failure(StatusReason.CONFLICT,
        "Operation cannot be fulfilled on " + key.groupResource() + " "
            + GoStrings.quote(key.name()) + ": " + reason,
        details(key)));
  }

  /**
   * 409 Conflict for a failed storage precondition, wrapping the storage error text as kube does:
   * {@code ... StorageError: invalid object, Code: 4, Key: <key>, ResourceVersion: 0,
   * AdditionalErrorMsg: Precondition failed: UID in precondition: a, UID in object meta: b}.
   *
   * @param key the object
   * @param detail the text after {@code Precondition failed: }
   * @return the exception
   */
  public static ConflictException preconditionFailed(ObjectKey key, String detail) {
    requireNonNull(detail, "detail");
    return conflict(key, "StorageError: invalid object, Code: 4, Key: " + key.storageKey()
        + ", ResourceVersion: 0, AdditionalErrorMsg: " + detail);
  }

  /**
   * 410 Expired for a watch from a revision older than the retained history.
   *
   * @param requested the revision asked for
   * @param oldestAvailable the oldest retained revision
   * @return the exception: {@code too old resource version: <requested> (<oldestAvailable>)}
   */
  public static GoneException tooOldResourceVersion(long requested, long oldestAvailable) {
    return expired("too old resource version: " + requested + " (" + oldestAvailable + ")");
  }

  /**
   * 410 Expired with the given message.
   *
   * @param message the message
   * @return the exception
   */
  public static GoneException expired(String message) {
    return new GoneException(Status.failure(StatusReason.EXPIRED, message));
  }

  /**
   * 504 Timeout for a read that asks for a revision the store has not reached.
   *
   * @param requested the revision asked for
   * @param current the store's current revision
   * @return the exception, with kube's {@code Too large resource version} message
   */
  public static TimeoutException tooLargeResourceVersion(long requested, long current) {
    return tooLargeResourceVersion(requested, current, 0);
  }

  /**
   * 504 Timeout for a read that asks for a revision the store has not reached, telling the client
   * to retry after {@code retryAfterSeconds} (kube's watch cache says 1 after waiting 3 s).
   *
   * @param requested the revision asked for
   * @param current the store's current revision
   * @param retryAfterSeconds the {@code retryAfterSeconds} detail
   * @return the exception
   */
  public static TimeoutException tooLargeResourceVersion(long requested, long current,
      int retryAfterSeconds) {
    return new TimeoutException(Status.failure(StatusReason.TIMEOUT,
        "Timeout: Too large resource version: " + requested + ", current: " + current,
        new StatusDetails("", "", "", "",
            List.of(new StatusCause(CAUSE_RESOURCE_VERSION_TOO_LARGE, "Too large resource version", "")),
            retryAfterSeconds)));
  }

  /**
   * 400 BadRequest with the given message.
   *
   * @param message the message
   * @return the exception
   */
  public static BadRequestException badRequest(String message) {
    return new BadRequestException(Status.failure(StatusReason.BAD_REQUEST, message));
  }

  /**
   * 400 for a continue token that cannot be decoded.
   *
   * @param detail why it cannot be decoded
   * @return the exception: {@code invalid continue token: <detail>}
   */
  public static BadRequestException invalidContinueToken(String detail) {
    return badRequest("invalid continue token: " + detail);
  }

  /**
   * The plain (reason-less, 500) error kube-apiserver returns when a create carries a
   * resourceVersion: {@code resourceVersion should not be set on objects to be created}.
   *
   * @return the exception
   */
  public static StatusException resourceVersionSetOnCreate() {
    return new StatusException(Status.failure(StatusReason.UNKNOWN,
        "resourceVersion should not be set on objects to be created"));
  }

  private static StatusDetails details(ObjectKey key) {
    return StatusDetails.of(key.name(), key.group(), key.resource());
  }

}
