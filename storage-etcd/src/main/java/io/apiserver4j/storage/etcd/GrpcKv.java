/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.KVGrpc;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.grpc.ClientInterceptor;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@link Kv} as blocking gRPC calls on a channel of the store's own: the caller's thread sends
 * the request and decodes the answer, the channel's event loop only moves bytes. jetcd's client
 * hands every call to its executor to start it and passes the answer through gRPC's and its own
 * executors before the waiting thread wakes, which costs more CPU than the write itself saves on
 * a busy server; the store waits for every answer anyway. Fails fast (no wait for a connection,
 * no retries) and bounds each call by the request timeout, like the store's jetcd client.
 */
final class GrpcKv implements Kv {
  private final ManagedChannel channel;
  private final KVGrpc.KVBlockingStub stub;
  private final long timeoutNanos;

  /**
   * @param target the gRPC target jetcd computes from the endpoints (its name resolvers, one
   *     address per endpoint, round robin as jetcd balances)
   */
  GrpcKv(String target, Duration timeout, List<ClientInterceptor> interceptors) {
    this.timeoutNanos = timeout.toNanos();
    this.channel = NettyChannelBuilder.forTarget(target)
        .usePlaintext()
        .defaultLoadBalancingPolicy("round_robin")
        .disableRetry()
        .withOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE,
            timeout.toMillis()))
        .intercept(interceptors)
        .build();
    this.stub = KVGrpc.newBlockingStub(channel);
  }

  private KVGrpc.KVBlockingStub call() {
    return stub.withDeadlineAfter(timeoutNanos, TimeUnit.NANOSECONDS);
  }

  @Override
  public CompletableFuture<GetResponse> range(RangeRequest request) {
    return run(s -> new GetResponse(s.range(request), ByteSequence.EMPTY));
  }

  @Override
  public CompletableFuture<TxnResponse> txn(TxnRequest request) {
    return run(s -> new TxnResponse(s.txn(request), ByteSequence.EMPTY));
  }

  @Override
  public CompletableFuture<DeleteResponse> delete(DeleteRangeRequest request) {
    return run(s -> new DeleteResponse(s.deleteRange(request), ByteSequence.EMPTY));
  }

  private <T> CompletableFuture<T> run(Function<KVGrpc.KVBlockingStub, T> call) {
    try {
      return CompletableFuture.completedFuture(call.apply(call()));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void close() {
    channel.shutdownNow();
  }
}
