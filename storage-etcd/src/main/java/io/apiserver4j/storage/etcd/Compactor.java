/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.storage.etcd.EtcdCalls.Kind;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.CompactResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a {@link CompactionPolicy} on a background daemon thread and remembers the newest
 * compaction this store made or saw. Failures (etcd down) are retried at the next opportunity;
 * they never reach a caller.
 */
final class Compactor implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Compactor.class);
  /** Whether the last background attempt failed (touched by the compactor thread only). */
  private boolean failing;
  private final KV kv;
  private final EtcdKeys keys;
  private final EtcdCalls calls;
  private final InstantSource clock;
  private final CompactionPolicy policy;
  private final Duration pollPeriod;
  private final AtomicLong compacted = new AtomicLong();
  private final Object signal = new Object();
  private final Thread thread;
  private volatile boolean closed;

  // EveryRevisions: the last compaction point chosen and one waiting for the thread
  private final AtomicLong lastTarget = new AtomicLong();
  private final AtomicLong pendingTarget = new AtomicLong();

  // Interval: kube's protocol state, touched by the compactor thread (or a test) only
  private long compactTime;
  private long revisionAtLastTick;
  private Instant nextTick;

  Compactor(KV kv, EtcdKeys keys, EtcdCalls calls, InstantSource clock, CompactionPolicy policy,
      Duration pollPeriod) {
    this.kv = kv;
    this.keys = keys;
    this.calls = calls;
    this.clock = clock;
    this.policy = policy;
    this.pollPeriod = pollPeriod;
    if (policy instanceof CompactionPolicy.Interval interval) {
      nextTick = clock.instant().plus(interval.period());
    }
    if (policy instanceof CompactionPolicy.None) {
      thread = null;
    } else {
      thread = new Thread(this::run, "apiserver4j-etcd-compactor");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** The newest compaction revision this store made or observed; 0 if none. */
  long compactedRevision() {
    return compacted.get();
  }

  void noteCompacted(long revision) {
    compacted.accumulateAndGet(revision, Math::max);
  }

  /** Tells an {@link CompactionPolicy.EveryRevisions} policy that a write reached {@code revision}. */
  void observeWrite(long revision) {
    if (!(policy instanceof CompactionPolicy.EveryRevisions every)) {
      return;
    }
    long n = every.revisions();
    long target = revision - n;
    long last = lastTarget.get();
    if (target >= last + n && lastTarget.compareAndSet(last, target)) {
      pendingTarget.accumulateAndGet(target, Math::max);
      synchronized (signal) {
        signal.notifyAll();
      }
    }
  }

  /**
   * Compacts etcd at {@code revision}.
   *
   * @throws IllegalArgumentException if the revision is not positive or beyond the current one
   * @throws io.apiserver4j.core.errors.StatusException 503/500 if etcd fails
   */
  void compact(long revision) {
    if (revision < 1) {
      throw new IllegalArgumentException("revision must be positive: " + revision);
    }
    CompletableFuture<CompactResponse> f = kv.compact(revision);
    try {
      calls.await(f, Kind.WRITE, "compact at revision " + revision);
    } catch (RuntimeException e) {
      Throwable cause = failureOf(f);
      if (cause != null && EtcdCalls.isCompacted(cause)) {
        return; // an equal or newer compaction happened already
      }
      if (cause != null && EtcdCalls.isFutureRevision(cause)) {
        throw new IllegalArgumentException(
            "cannot compact at " + revision + ", beyond the current revision");
      }
      throw e;
    }
    noteCompacted(revision);
  }

  /**
   * One period of kube-apiserver's compaction protocol: whoever bumps the version of the
   * compaction key from the version it last saw compacts to the revision it recorded one period
   * earlier; the others learn that someone did and record the current revision.
   *
   * @return whether this call compacted
   */
  boolean tick() {
    ByteSequence key = keys.compactKey();
    TxnResponse r = calls.await(kv.txn()
        .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(compactTime)))
        .Then(Op.put(key, EtcdKeys.bytes(Long.toString(revisionAtLastTick)), PutOption.DEFAULT))
        .Else(Op.get(key, GetOption.DEFAULT))
        .commit(), Kind.WRITE, "update " + EtcdKeys.string(key));
    long current = r.getHeader().getRevision();
    if (!r.isSucceeded()) {
      List<KeyValue> kvs = r.getGetResponses().get(0).getKvs();
      compactTime = kvs.isEmpty() ? 0 : kvs.get(0).getVersion();
      if (!kvs.isEmpty()) {
        parseRevision(kvs.get(0).getValue()).ifPresent(this::noteCompacted);
      }
      revisionAtLastTick = current;
      return false;
    }
    compactTime++;
    long target = revisionAtLastTick;
    revisionAtLastTick = current;
    if (target == 0) {
      return false; // the first period only records where it started
    }
    compact(target);
    return true;
  }

  private static java.util.Optional<Long> parseRevision(ByteSequence value) {
    try {
      return java.util.Optional.of(Long.parseLong(EtcdKeys.string(value)));
    } catch (NumberFormatException e) {
      return java.util.Optional.empty();
    }
  }

  private static Throwable failureOf(CompletableFuture<?> f) {
    if (!f.isCompletedExceptionally()) {
      return null;
    }
    try {
      f.get();
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (InterruptedException | java.util.concurrent.CancellationException e) {
      return null;
    }
  }

  private void run() {
    while (!closed) {
      try {
        synchronized (signal) {
          if (pendingTarget.get() == 0 && !closed) {
            signal.wait(pollPeriod.toMillis());
          }
        }
      } catch (InterruptedException e) {
        return;
      }
      if (closed) {
        return;
      }
      try {
        long target = pendingTarget.getAndSet(0);
        if (target > 0) {
          compact(target);
        }
        if (policy instanceof CompactionPolicy.Interval interval
            && !clock.instant().isBefore(nextTick)) {
          nextTick = clock.instant().plus(interval.period());
          tick();
        }
        if (failing) {
          failing = false;
          LOG.info("etcd compaction works again");
        }
      } catch (RuntimeException e) {
        // etcd is unavailable or refused: the next period or write tries again; a streak of
        // failures is logged once, with the first one's stack
        if (!failing) {
          failing = true;
          LOG.warn("etcd compaction failed; retrying every period until it succeeds", e);
        } else {
          LOG.debug("etcd compaction failed again", e);
        }
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    if (thread != null) {
      synchronized (signal) {
        signal.notifyAll();
      }
      try {
        thread.join(calls.timeout().toMillis() + 1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
