/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.TxnRequest;
import java.util.concurrent.CompletableFuture;

/**
 * The unary key-value requests an {@link EtcdStore} sends, as etcd's own protobuf messages, and
 * their answers in jetcd's response types. A future may be complete when it is returned (a
 * transport that waits on the calling thread); a failure is jetcd's or gRPC's exception, which
 * {@link EtcdCalls} turns into a Status.
 */
interface Kv extends AutoCloseable {
  CompletableFuture<GetResponse> range(RangeRequest request);

  CompletableFuture<TxnResponse> txn(TxnRequest request);

  CompletableFuture<DeleteResponse> delete(DeleteRangeRequest request);

  /** Releases what the transport itself created (never a caller's client). */
  @Override
  void close();
}
