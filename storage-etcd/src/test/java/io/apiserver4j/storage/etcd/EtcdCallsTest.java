/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.apiserver4j.core.errors.InternalErrorException;
import io.apiserver4j.core.errors.ServiceUnavailableException;
import io.apiserver4j.core.errors.StatusException;
import io.apiserver4j.storage.etcd.EtcdCalls.Kind;
import io.etcd.jetcd.common.exception.ErrorCode;
import io.etcd.jetcd.common.exception.EtcdExceptionFactory;
import io.grpc.Status;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class EtcdCallsTest {
  static Stream<Arguments> failures() {
    return Stream.of(
        Arguments.of(Status.UNAVAILABLE.withDescription("io exception").asRuntimeException(), 503,
            "UNAVAILABLE: io exception"),
        Arguments.of(Status.DEADLINE_EXCEEDED.withDescription("deadline\nwith a stack")
            .asRuntimeException(), 503, "DEADLINE_EXCEEDED: deadline"),
        Arguments.of(EtcdExceptionFactory.newEtcdException(ErrorCode.UNKNOWN,
            "etcdserver: request timed out"), 503, "UNKNOWN: etcdserver: request timed out"),
        Arguments.of(EtcdExceptionFactory.newEtcdException(ErrorCode.UNAVAILABLE,
            "etcdserver: no leader"), 503, "UNAVAILABLE: etcdserver: no leader"),
        Arguments.of(EtcdExceptionFactory.newEtcdException(ErrorCode.RESOURCE_EXHAUSTED,
            "etcdserver: mvcc: database space exceeded"), 503, "database space exceeded"),
        Arguments.of(Status.PERMISSION_DENIED.withDescription("etcdserver: permission denied")
            .asRuntimeException(), 500, "PERMISSION_DENIED: etcdserver: permission denied"),
        Arguments.of(EtcdExceptionFactory.newEtcdException(ErrorCode.INVALID_ARGUMENT,
            "etcdserver: request is too large"), 500, "request is too large"),
        Arguments.of(new IllegalStateException("boom"), 500, "boom"));
  }

  @ParameterizedTest
  @MethodSource("failures")
  void failuresBecome503Or500(Throwable failure, int code, String detail) {
    StatusException s = EtcdCalls.translate(new ExecutionException(failure), Kind.READ,
        "get /k");
    assertThat(s.code()).isEqualTo(code);
    assertThat(s).isInstanceOf(code == 503 ? ServiceUnavailableException.class
        : InternalErrorException.class);
    assertThat(s.getMessage()).contains("get /k").contains(detail).doesNotContain("\n")
        .startsWith(code == 503 ? "etcd is unavailable: cannot get /k: "
            : "Internal error occurred: etcd failed to get /k: ");
  }

  @Test
  void aCallEndedByAnInterruptIsAnInternalError() {
    EtcdCalls calls = new EtcdCalls(java.time.Duration.ofSeconds(5));
    java.util.concurrent.CompletableFuture<Object> cancelled =
        java.util.concurrent.CompletableFuture.failedFuture(Status.CANCELLED
            .withDescription("Thread interrupted").asRuntimeException());
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> calls.await(cancelled, Kind.READ, "get /k"))
          .isInstanceOf(InternalErrorException.class)
          .hasMessageContaining("interrupted while waiting for etcd to get /k");
    } finally {
      Thread.interrupted();
    }
    assertThat(EtcdCalls.translate(new ExecutionException(Status.CANCELLED.asRuntimeException()),
        Kind.READ, "get /k").code()).isEqualTo(503);
  }

  @Test
  void anUnavailableWriteSaysItsOutcomeIsUnknown() {
    StatusException s = EtcdCalls.translate(
        new CompletionException(Status.UNAVAILABLE.asRuntimeException()), Kind.WRITE, "create /k");
    assertThat(s.getMessage()).endsWith("(the write may or may not have been applied)");
  }

  @Test
  void compactedAndFutureRevisionsAreRecognised() {
    Throwable compacted = EtcdExceptionFactory.newCompactedException(7);
    Throwable grpcCompacted = Status.OUT_OF_RANGE
        .withDescription("etcdserver: mvcc: required revision has been compacted")
        .asRuntimeException();
    Throwable future = Status.OUT_OF_RANGE
        .withDescription("etcdserver: mvcc: required revision is a future revision")
        .asRuntimeException();
    assertThat(EtcdCalls.isCompacted(new ExecutionException(compacted))).isTrue();
    assertThat(EtcdCalls.isCompacted(grpcCompacted)).isTrue();
    assertThat(EtcdCalls.isFutureRevision(grpcCompacted)).isFalse();
    assertThat(EtcdCalls.isFutureRevision(new CompletionException(future))).isTrue();
    assertThat(EtcdCalls.isCompacted(new IllegalStateException(
        "required revision has been compacted"))).isFalse();
  }

  @Test
  void awaitIsBoundedByTheTimeout() {
    EtcdCalls calls = new EtcdCalls(Duration.ofMillis(50));
    CompletableFuture<String> never = new CompletableFuture<>();
    assertThatThrownBy(() -> calls.await(never, Kind.WRITE, "update /k"))
        .isInstanceOfSatisfying(ServiceUnavailableException.class, e -> assertThat(e.getMessage())
            .isEqualTo("etcd is unavailable: cannot update /k: no answer within 50 ms (the write"
                + " may or may not have been applied)"));
    assertThat(never).isCancelled();
    assertThat(calls.await(CompletableFuture.completedFuture("ok"), Kind.READ, "get /k"))
        .isEqualTo("ok");
  }
}
