/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.storage.etcd;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.storage.ObjectKey;
import io.apiserver4j.storage.StoredObject;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KV;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * A quick look at what the store costs on top of etcd: raw jetcd puts against
 * {@link EtcdStore} creates (one transaction) and updates (one compare-and-swap transaction on
 * the state the store last wrote), sequentially and with concurrent callers, on a throw-away {@link EtcdServer}.
 * Not a benchmark (JMH ones live in {@code benchmarks}); no assertion, just numbers.
 *
 * <p>Run (after {@code mvn -o -q -pl storage-etcd install -DskipTests}):
 * <pre>
 * mvn -o -q -pl storage-etcd dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp storage-etcd/target/classes:storage-etcd/target/test-classes:$(cat /tmp/cp.txt) \
 *     io.apiserver4j.storage.etcd.EtcdStoreThroughput [seconds-per-case] [threads]
 * </pre>
 */
public final class EtcdStoreThroughput {
  private EtcdStoreThroughput() {}

  /** One measured operation, given the thread and a per-thread sequence number. */
  @FunctionalInterface
  interface Operation {
    void run(int thread, int i) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 3;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
    MapValue object = MapValue.ofEntries(
        "apiVersion", Value.of("v1"), "kind", Value.of("ConfigMap"),
        "metadata", MapValue.ofEntries("name", Value.of("cm"), "namespace", Value.of("default"),
            "uid", Value.of("0b7a8a44-8d4e-4cf5-9d7e-8a6f4d1e2c3b"),
            "labels", MapValue.ofEntries("app", Value.of("demo"))),
        "data", MapValue.ofEntries("key", Value.of("x".repeat(200))));
    ByteSequence value = ByteSequence.from(Json.writeBytes(object));
    try (EtcdServer etcd = EtcdServer.start();
        Client client = Client.builder().endpoints(etcd.clientUri()).build();
        EtcdStore store = EtcdStore.builder().endpoints(etcd.clientUri()).build()) {
      KV kv = client.getKVClient();
      System.out.printf("object: %d bytes of JSON; %.1f s per case%n", value.size(), seconds);
      for (int t : new int[] {1, threads}) {
        String run = "r" + t;
        report("raw put", t, measure(seconds, t, (th, i) -> kv.put(
            EtcdKeys.bytes("/raw/" + run + "/" + th + "/" + i), value).get()));
        report("store create", t, measure(seconds, t, (th, i) -> store.create(
            ObjectKey.namespaced("", "configmaps", run + "-" + th, "o" + i), object)));
        List<StoredObject> targets = new ArrayList<>();
        for (int th = 0; th < t; th++) {
          targets.add(store.create(ObjectKey.namespaced("", "configmaps", "u" + run, "c" + th),
              object));
        }
        report("store update", t, measure(seconds, t, (th, i) -> store.update(
            targets.get(th).key(), object.with("n", Value.of(i)),
            io.apiserver4j.storage.Store.ANY_VERSION)));
        report("store get", t, measure(seconds, t, (th, i) -> store.get(targets.get(th).key())));
      }
    }
  }

  private static void report(String what, int threads, double perSecond) {
    System.out.printf("%-14s %2d thread(s): %8.0f ops/s%n", what, threads, perSecond);
  }

  private static double measure(double seconds, int threads, Operation op) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      long end = System.nanoTime() + (long) (seconds * 1e9);
      long start = System.nanoTime();
      List<Future<Integer>> counts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        counts.add(pool.submit(() -> {
          int i = 0;
          while (System.nanoTime() < end) {
            op.run(thread, i++);
          }
          return i;
        }));
      }
      long total = 0;
      for (Future<Integer> f : counts) {
        total += f.get(5, TimeUnit.MINUTES);
      }
      return total / ((System.nanoTime() - start) / 1e9);
    } finally {
      pool.shutdownNow();
    }
  }
}
