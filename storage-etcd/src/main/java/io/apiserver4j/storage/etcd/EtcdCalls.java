/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.errors.StatusErrors;
import io.apiserver4j.core.errors.StatusException;
import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for etcd within the request timeout and turns every failure into a Status: 503
 * ServiceUnavailable for what retrying may cure (etcd unreachable, timed out, no leader), 500
 * InternalError for the rest. Callers look for the etcd answers they give a meaning to (a
 * compacted or future revision) with {@link #isCompacted} and {@link #isFutureRevision} first.
 */
final class EtcdCalls {
  /** Whether a failed request may have changed etcd, which the error message then says. */
  enum Kind {
    READ, WRITE
  }

  private static final String COMPACTED = "required revision has been compacted";
  private static final String FUTURE = "required revision is a future revision";

  private final Duration timeout;

  EtcdCalls(Duration timeout) {
    this.timeout = timeout;
  }

  Duration timeout() {
    return timeout;
  }

  /**
   * The future's result, waiting at most the request timeout.
   *
   * @throws StatusException 503 or 500 for any failure
   */
  <T> T await(CompletableFuture<T> future, Kind kind, String what) {
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw unavailable(kind, what, "no answer within " + timeout.toMillis() + " ms");
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw StatusErrors.internal("interrupted while waiting for etcd to " + what);
    } catch (ExecutionException | CompletionException | CancellationException e) {
      if (Thread.currentThread().isInterrupted()) {
        // a blocking gRPC call ends cancelled when its thread is interrupted, and says so
        throw StatusErrors.internal("interrupted while waiting for etcd to " + what);
      }
      throw translate(e, kind, what);
    }
  }

  /** The Status for a failure of an etcd request. */
  static StatusException translate(Throwable failure, Kind kind, String what) {
    Throwable t = unwrap(failure);
    if (t instanceof StatusException s) {
      return s;
    }
    Optional<String> code = grpcCode(t);
    if (code.isPresent()) {
      String detail = code.get() + ": " + firstLine(description(t));
      switch (code.get()) {
        case "UNAVAILABLE":
        case "DEADLINE_EXCEEDED":
        case "CANCELLED":
        case "ABORTED":
        case "RESOURCE_EXHAUSTED":
          return unavailable(kind, what, detail);
        default:
          if (isTransientServerError(t.getMessage())) {
            return unavailable(kind, what, detail);
          }
          return StatusErrors.internal("etcd failed to " + what + ": " + detail);
      }
    }
    if (t instanceof TimeoutException || t instanceof CancellationException) {
      return unavailable(kind, what, t.toString());
    }
    return StatusErrors.internal("etcd failed to " + what + ": " + t);
  }

  static boolean isCompacted(Throwable failure) {
    Throwable t = unwrap(failure);
    return grpcCode(t).isPresent() && t.getMessage() != null && t.getMessage().contains(COMPACTED);
  }

  static boolean isFutureRevision(Throwable failure) {
    Throwable t = unwrap(failure);
    return grpcCode(t).isPresent() && t.getMessage() != null && t.getMessage().contains(FUTURE);
  }

  /** The gRPC status code of a failure from jetcd (which passes some on unconverted). */
  private static Optional<String> grpcCode(Throwable t) {
    if (t instanceof EtcdException e) {
      return Optional.of(e.getErrorCode().name());
    }
    if (t instanceof StatusRuntimeException || t instanceof io.grpc.StatusException) {
      return Optional.of(Status.fromThrowable(t).getCode().name());
    }
    return Optional.empty();
  }

  private static String description(Throwable t) {
    if (t instanceof EtcdException) {
      return t.getMessage();
    }
    String d = Status.fromThrowable(t).getDescription();
    return d == null ? "" : d;
  }

  static Throwable unwrap(Throwable t) {
    Throwable cur = t;
    while ((cur instanceof ExecutionException || cur instanceof CompletionException)
        && cur.getCause() != null) {
      cur = cur.getCause();
    }
    return cur;
  }

  private static boolean isTransientServerError(String message) {
    // etcd's own transient failures arrive with codes other than UNAVAILABLE
    return message != null && (message.contains("etcdserver: request timed out")
        || message.contains("etcdserver: no leader")
        || message.contains("etcdserver: leader changed")
        || message.contains("etcdserver: too many requests")
        || message.contains("etcdserver: server stopped"));
  }

  private static StatusException unavailable(Kind kind, String what, String detail) {
    String outcome = kind == Kind.WRITE ? " (the write may or may not have been applied)" : "";
    return StatusErrors.serviceUnavailable(
        "etcd is unavailable: cannot " + what + ": " + detail + outcome);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

}
