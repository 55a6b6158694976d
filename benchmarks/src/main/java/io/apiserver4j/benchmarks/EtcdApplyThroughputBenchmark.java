/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.apimachinery.patch.PatchType;
import io.apiserver4j.core.GroupVersionResource;
import io.apiserver4j.storage.etcd.EtcdServer;
import io.apiserver4j.storage.etcd.EtcdStore;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.PutResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.CompactOption;
import io.etcd.jetcd.options.PutOption;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the API-server layer costs on top of etcd: server-side apply throughput through a whole
 * in-process {@link ApiServer} stored in {@link EtcdStore}, against the raw etcd put rate, both
 * at 16 concurrent writers:
 *
 * <ul>
 *   <li>{@code apply}: each thread applies its own Deployment (manager {@code bench}) with an
 *       annotation that changes on every call, so every apply merges, tracks managed fields,
 *       validates and writes (one compare-and-swap transaction in etcd, on the state the store
 *       wrote last);
 *   <li>{@code rawPut}: each thread puts, through its own key and a plain jetcd client, a value
 *       of exactly the bytes of a Deployment as the store wrote it (one put);
 *   <li>{@code rawCompareAndSwap}: the same value written as the etcd store writes an update
 *       whose current state it knows, one transaction conditional on the mod revision of the
 *       thread's previous write: the floor of any optimistic write on etcd, which costs etcd
 *       itself more than a plain put;
 *   <li>{@code rawReadThenCompareAndSwap}: the same value written as the etcd store writes an
 *       update, a read and then a transaction conditional on the mod revision read: the floor
 *       of any read-modify-write on etcd without a cache of the current state, for telling the
 *       request pipeline's cost apart from the storage protocol's.
 * </ul>
 *
 * Each benchmark starts its own real etcd (the {@code etcd} binary, Debian package
 * {@code etcd-server}, on free loopback ports with its data under {@code /dev/shm} when
 * possible) through the {@link EtcdServer} harness, so both run against a fresh etcd of the
 * same kind, from the same kind of JVM, in the same run. The figure of interest is
 * {@code apply / rawPut}; the target is at least 0.5. On a small machine all of them are
 * CPU-bound (the JVM and etcd share the cores), so the ratios are ratios of CPU cost per
 * operation, client and etcd together.
 *
 * <p>Run from the repository root (etcd must be installed; {@code -Dapiserver4j.etcd=<path>}
 * points at another binary):
 * {@code java -jar benchmarks/target/benchmarks.jar EtcdApplyThroughputBenchmark}
 * (briefly: add {@code -i 3}). The warmup is long because the request pipeline behind
 * {@code apply} has far more code for the JIT to compile than a raw put, which takes a minute on
 * two busy cores; shorter warmups measure the compiler, not the server.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 6, time = 10)
@Measurement(iterations = 5, time = 5)
@Fork(1)
@Threads(16)
public class EtcdApplyThroughputBenchmark {
  static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");
  static final String PREFIX = "/bench";
  /** A bound on a single call, so that a broken etcd fails the run instead of hanging it. */
  static final long CALL_TIMEOUT_SECONDS = 30;


  /** One etcd, one API server on its own store, and one plain jetcd client for raw puts. */
  @State(Scope.Benchmark)
  public static class Cluster {
    EtcdServer etcd;
    EtcdStore store;
    ApiServer server;
    Client rawClient;
    KV kv;
    final AtomicInteger threads = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() {
      etcd = EtcdServer.start();
      store = EtcdStore.builder().endpoints(etcd.clientUri()).keyPrefix(PREFIX).build();
      server = ApiServer.builder().store(store).build();
      rawClient = Client.builder().endpoints(etcd.clientUri()).build();
      kv = rawClient.getKVClient();
    }

    /**
     * Compacts etcd's history before each iteration (outside the measurement), so that long runs
     * stay within etcd's space quota: without compaction every write keeps its value.
     */
    @Setup(Level.Iteration)
    public void compactHistory() {
      long revision = await(kv.get(bytes(PREFIX))).getHeader().getRevision();
      await(kv.compact(revision, CompactOption.newBuilder().withCompactPhysical(true).build()));
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      server.close();
      store.close();
      rawClient.close();
      etcd.close();
    }

    /** The bytes etcd holds for a Deployment, at EtcdStore's documented key layout. */
    byte[] storedBytes(String namespace, String name) {
      ByteSequence key = bytes(PREFIX + "/" + DEPLOYMENTS.group() + "/"
          + DEPLOYMENTS.resource() + "/" + namespace + "/" + name);
      GetResponse r = await(kv.get(key));
      if (r.getKvs().isEmpty()) {
        throw new IllegalStateException("no value stored at " + key);
      }
      return r.getKvs().get(0).getValue().getBytes();
    }
  }

  /** A thread's own Deployment (for apply) and key and value (for raw puts). */
  @State(Scope.Thread)
  public static class Writer {
    String name;
    long generation;
    ByteSequence rawKey;
    ByteSequence rawValue;
    /** The mod revision of this thread's last raw write. */
    long rawRevision;

    @Setup(Level.Trial)
    public void setUp(Cluster c) {
      int id = c.threads.incrementAndGet();
      name = "nginx-" + id;
      c.server.handle(apply(name, 0)).orThrow();
      rawKey = bytes("/raw/" + id);
      rawValue = ByteSequence.from(c.storedBytes("default", name));
      rawRevision = await(c.kv.put(rawKey, rawValue)).getHeader().getRevision();
    }
  }

  static ApiRequest apply(String name, long generation) {
    return ApiRequest.builder(Verb.PATCH, DEPLOYMENTS).namespace("default").name(name)
        .fieldManager("bench")
        .patch(PatchType.APPLY_YAML, BenchInputs.deployment(name, "bench/generation", generation))
        .build();
  }

  static ByteSequence bytes(String s) {
    return ByteSequence.from(s, StandardCharsets.UTF_8);
  }

  static <T> T await(java.util.concurrent.CompletableFuture<T> f) {
    try {
      return f.get(CALL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException("etcd call failed", e);
    }
  }

  @Benchmark
  public ApiResponse apply(Cluster c, Writer w) {
    ApiResponse r = c.server.handle(apply(w.name, ++w.generation));
    if (r.code() != 200) {
      throw new IllegalStateException(r.body().toString());
    }
    return r;
  }

  @Benchmark
  public PutResponse rawPut(Cluster c, Writer w) {
    return await(c.kv.put(w.rawKey, w.rawValue));
  }

  @Benchmark
  public TxnResponse rawCompareAndSwap(Cluster c, Writer w) {
    TxnResponse r = await(c.kv.txn()
        .If(new Cmp(w.rawKey, Cmp.Op.EQUAL, CmpTarget.modRevision(w.rawRevision)))
        .Then(Op.put(w.rawKey, w.rawValue, PutOption.DEFAULT)).commit());
    if (!r.isSucceeded()) {
      throw new IllegalStateException("lost a compare-and-swap on a key no other thread writes");
    }
    w.rawRevision = r.getHeader().getRevision();
    return r;
  }

  @Benchmark
  public TxnResponse rawReadThenCompareAndSwap(Cluster c, Writer w) {
    GetResponse current = await(c.kv.get(w.rawKey));
    long revision = current.getKvs().isEmpty() ? 0 : current.getKvs().get(0).getModRevision();
    Cmp unchanged = revision == 0
        ? new Cmp(w.rawKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0))
        : new Cmp(w.rawKey, Cmp.Op.EQUAL, CmpTarget.modRevision(revision));
    TxnResponse r = await(c.kv.txn().If(unchanged)
        .Then(Op.put(w.rawKey, w.rawValue, PutOption.DEFAULT)).commit());
    if (!r.isSucceeded()) {
      throw new IllegalStateException("lost a compare-and-swap on a key no other thread writes");
    }
    return r;
  }
}
