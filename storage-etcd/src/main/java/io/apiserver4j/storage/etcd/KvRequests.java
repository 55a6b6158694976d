/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.api.Compare;
import io.etcd.jetcd.api.DeleteRangeRequest;
import io.etcd.jetcd.api.PutRequest;
import io.etcd.jetcd.api.RangeRequest;
import io.etcd.jetcd.api.RequestOp;

/** The pieces of the etcd requests the store sends, as etcd's protobuf messages. */
final class KvRequests {
  private KvRequests() {}

  static RangeRequest get(ByteString key) {
    return RangeRequest.newBuilder().setKey(key).build();
  }

  /** A read of {@code [start, end)} at {@code revision} (0: the current one). */
  static RangeRequest.Builder range(ByteString start, ByteString end, long revision) {
    return RangeRequest.newBuilder().setKey(start).setRangeEnd(end).setRevision(revision);
  }

  static DeleteRangeRequest delete(ByteString key, boolean prevKv) {
    return DeleteRangeRequest.newBuilder().setKey(key).setPrevKv(prevKv).build();
  }

  static Compare modRevisionIs(ByteString key, long revision) {
    return Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.MOD)
        .setResult(Compare.CompareResult.EQUAL).setModRevision(revision).build();
  }

  /** True exactly when the key does not exist. */
  static Compare absent(ByteString key) {
    return Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.CREATE)
        .setResult(Compare.CompareResult.EQUAL).setCreateRevision(0).build();
  }

  /** False for a missing key, as every value compare in etcd. */
  static Compare valueIsNot(ByteString key, ByteString value) {
    return Compare.newBuilder().setKey(key).setTarget(Compare.CompareTarget.VALUE)
        .setResult(Compare.CompareResult.NOT_EQUAL).setValue(value).build();
  }

  static RequestOp putOp(ByteString key, ByteString value) {
    return RequestOp.newBuilder()
        .setRequestPut(PutRequest.newBuilder().setKey(key).setValue(value)).build();
  }

  static RequestOp getOp(ByteString key) {
    return RequestOp.newBuilder().setRequestRange(get(key)).build();
  }

  static RequestOp deleteOp(ByteString key, boolean prevKv) {
    return RequestOp.newBuilder().setRequestDeleteRange(delete(key, prevKv)).build();
  }
}
