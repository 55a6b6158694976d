/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.apiserver;

import io.apiserver4j.apiserver.answer.StreamedList;
import static java.util.Objects.requireNonNull;

import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.errors.Status;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.StoredObject;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The outcome of an {@link ApiRequest}: the HTTP status code kube-apiserver would send, the body
 * (an object, a list, or a {@code Status}), and the warnings kube-apiserver would put in
 * {@code Warning} headers, in the order they were raised.
 *
 * <p>A list may come as a {@link StreamedList}, whose items are decoded only as they are
 * written, so that a front end can stream it (kube-apiserver 1.33+ streams JSON lists);
 * {@link #body()} then builds the whole list object on first use. Likewise a single object
 * served as stored may come as its {@link StoredObject}, which a front end can write from its
 * stored bytes without decoding them. Thread-safe; equality is by code, body and warnings, as
 * for a record.
 */
public final class ApiResponse {
  private final int code;
  private final List<String> warnings;
  private final StreamedList list;
  /** The stored state whose object is the body, when it is; lets a front end copy its bytes. */
  private final StoredObject stored;
  private volatile MapValue body;

  /**
   * @param code the HTTP status code (200, 201, 202, or an error code)
   * @param body the response object; for errors the {@code Status} object
   * @param warnings warning texts (without the {@code 299 - } header prefix)
   */
  public ApiResponse(int code, MapValue body, List<String> warnings) {
    this.code = code;
    this.body = requireNonNull(body, "body");
    this.warnings = List.copyOf(warnings);
    this.list = null;
    this.stored = null;
  }

  private ApiResponse(int code, StreamedList list, StoredObject stored, List<String> warnings) {
    this.code = code;
    this.list = list;
    this.stored = stored;
    this.warnings = List.copyOf(warnings);
  }

  /**
   * A successful answer whose body is {@code stored}'s object exactly as the store holds it, so
   * that a front end may write the store's encoding instead of encoding the object again.
   */
  public static ApiResponse of(int code, StoredObject stored, List<String> warnings) {
    requireNonNull(stored, "stored");
    if (code < 200 || code >= 300) {
      throw new IllegalArgumentException("a stored object answers a success, not " + code);
    }
    return new ApiResponse(code, null, stored, warnings);
  }

  /** A successful list answer (200) whose items are produced as they are written. */
  public static ApiResponse of(StreamedList list, List<String> warnings) {
    return new ApiResponse(200, requireNonNull(list, "list"), null, warnings);
  }

  /** An error response carrying {@code status}. */
  public static ApiResponse of(Status status, List<String> warnings) {
    requireNonNull(status, "status");
    return new ApiResponse(status.code(), status.toValue(), warnings);
  }

  /** The HTTP status code. */
  public int code() {
    return code;
  }

  /** The response object; for a streamed list, the whole list (built on first use). */
  public MapValue body() {
    MapValue b = body;
    if (b == null) {
      b = list != null ? list.toValue() : stored.object();
      body = b;
    }
    return b;
  }

  /** Warning texts (without the {@code 299 - } header prefix). */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The stored state whose {@link StoredObject#object()} is the body, when the answer is one
   * ({@link StoredObject#writeJson} writes the same JSON as the body's encoding).
   */
  public Optional<StoredObject> storedObject() {
    return Optional.ofNullable(stored);
  }

  /** The list to stream, when the answer is one. */
  public Optional<StreamedList> streamedList() {
    return Optional.ofNullable(list);
  }

  /** Whether the request succeeded (a 2xx code). */
  public boolean isSuccess() {
    return code >= 200 && code < 300;
  }

  /**
   * The failure, when the body is a {@code Status} with {@code status: Failure}; success Status
   * bodies (from deletes) are not failures.
   */
  public Optional<Status> failure() {
    if (isSuccess()) {
      return Optional.empty();
    }
    return Optional.of(Status.fromValue(body()));
  }

  /**
   * The body of a successful response; for a failure, throws the {@link StatusException}
   * subclass matching its reason.
   */
  public MapValue orThrow() {
    Optional<Status> f = failure();
    if (f.isPresent()) {
      throw StatusException.of(f.get());
    }
    return body();
  }

  @Override
  public boolean equals(Object o) {
    return o == this || (o instanceof ApiResponse r && r.code == code
        && r.warnings.equals(warnings) && r.body().equals(body()));
  }

  @Override
  public int hashCode() {
    return Objects.hash(code, body(), warnings);
  }

  @Override
  public String toString() {
    return "ApiResponse[code=" + code + ", body=" + body() + ", warnings=" + warnings + "]";
  }
}
