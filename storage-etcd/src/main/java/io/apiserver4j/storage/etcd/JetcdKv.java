/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.api.Compare;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RequestOp;
import io.etcd.jetcd.api.TxnRequest;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@link Kv} through a jetcd client the caller configured (TLS, authentication), whose channel
 * the store cannot reach: each request is restated in jetcd's API. Covers the request shapes
 * {@link KvRequests} builds.
 */
final class JetcdKv implements Kv {
  private final KV kv;

  JetcdKv(KV kv) {
    this.kv = kv;
  }

  @Override
  public CompletableFuture<GetResponse> range(RangeRequest r) {
    return kv.get(ByteSequence.from(r.getKey()), getOption(r));
  }

  private static GetOption getOption(RangeRequest r) {
    GetOption.Builder o = GetOption.builder().withRevision(r.getRevision())
        .withCountOnly(r.getCountOnly());
    if (!r.getRangeEnd().isEmpty()) {
      o.withRange(ByteSequence.from(r.getRangeEnd()));
    }
    if (r.getLimit() > 0) {
      o.withLimit(r.getLimit());
    }
    return o.build();
  }

  @Override
  public CompletableFuture<TxnResponse> txn(TxnRequest r) {
    return kv.txn()
        .If(r.getCompareList().stream().map(JetcdKv::cmp).toArray(Cmp[]::new))
        .Then(ops(r.getSuccessList()))
        .Else(ops(r.getFailureList()))
        .commit();
  }

  private static Cmp cmp(Compare c) {
    CmpTarget<?> target = switch (c.getTarget()) {
      case MOD -> CmpTarget.modRevision(c.getModRevision());
      case CREATE -> CmpTarget.createRevision(c.getCreateRevision());
      case VERSION -> CmpTarget.version(c.getVersion());
      case VALUE -> CmpTarget.value(ByteSequence.from(c.getValue()));
      default -> throw new IllegalArgumentException("unsupported compare target " + c.getTarget());
    };
    Cmp.Op op = switch (c.getResult()) {
      case EQUAL -> Cmp.Op.EQUAL;
      case NOT_EQUAL -> Cmp.Op.NOT_EQUAL;
      case LESS -> Cmp.Op.LESS;
      case GREATER -> Cmp.Op.GREATER;
      default -> throw new IllegalArgumentException("unsupported compare " + c.getResult());
    };
    return new Cmp(ByteSequence.from(c.getKey()), op, target);
  }

  private static Op[] ops(List<RequestOp> ops) {
    return ops.stream().map(JetcdKv::op).toArray(Op[]::new);
  }

  private static Op op(RequestOp o) {
    return switch (o.getRequestCase()) {
      case REQUEST_PUT -> Op.put(ByteSequence.from(o.getRequestPut().getKey()),
          ByteSequence.from(o.getRequestPut().getValue()), PutOption.DEFAULT);
      case REQUEST_RANGE -> Op.get(ByteSequence.from(o.getRequestRange().getKey()),
          getOption(o.getRequestRange()));
      case REQUEST_DELETE_RANGE -> Op.delete(ByteSequence.from(o.getRequestDeleteRange().getKey()),
          deleteOption(o.getRequestDeleteRange()));
      default -> throw new IllegalArgumentException("unsupported request " + o.getRequestCase());
    };
  }

  private static DeleteOption deleteOption(DeleteRangeRequest r) {
    return DeleteOption.builder().withPrevKV(r.getPrevKv()).build();
  }

  @Override
  public CompletableFuture<DeleteResponse> delete(DeleteRangeRequest r) {
    return kv.delete(ByteSequence.from(r.getKey()), deleteOption(r));
  }

  @Override
  public void close() {
    // the caller's client, or closed with the store's
  }
}
