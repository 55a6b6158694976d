/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.core.Json;
import io.apiserver4j.http.HttpApiServer;
import io.apiserver4j.storage.StoredObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A GET of one ConfigMap of about 1 KB among 10,000 (issue 17): over HTTP on loopback, and the
 * server's own part in process, where a built-in object is written from its stored JSON
 * ({@code storedJson}) instead of decoded to a tree and encoded again ({@code treeJson}, what
 * every GET did before). Objects are taken round robin, so their trees are seldom still at hand.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar GetBenchmark -prof gc}; for the HTTP GET
 * of an earlier build, its jar after this module's classes:
 * {@code java -cp benchmarks/target/classes:OLD/benchmarks.jar org.openjdk.jmh.Main
 * GetBenchmark.httpGet}. {@link #main} reports the in-process cases as this thread's CPU time
 * per GET, which stays comparable on a loaded machine:
 * {@code java -cp benchmarks/target/benchmarks.jar io.apiserver4j.benchmarks.GetBenchmark}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@State(Scope.Benchmark)
public class GetBenchmark {
  static final int COUNT = 10_000;

  ApiServer api;
  HttpApiServer http;
  HttpClient client;
  URI[] uris;
  ApiRequest[] gets;
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    api = ListStreamingBenchmark.load(COUNT);
    http = HttpApiServer.builder(api).build();
    http.start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    uris = new URI[COUNT];
    gets = new ApiRequest[COUNT];
    for (int i = 0; i < COUNT; i++) {
      uris[i] = http.url().resolve("/api/v1/namespaces/" + ConfigMapCorpus.NAMESPACE
          + "/configmaps/" + ConfigMapCorpus.name(i));
      gets[i] = ApiRequest.builder(Verb.GET, StoreMemoryBenchmark.CONFIG_MAPS)
          .namespace(ConfigMapCorpus.NAMESPACE).name(ConfigMapCorpus.name(i)).build();
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    http.close();
    api.close();
  }

  /** {@link #storedJson} and {@link #treeJson} as CPU time per GET, best of 5 rounds. */
  public static void main(String[] args) {
    GetBenchmark b = new GetBenchmark();
    b.setUp();
    java.lang.management.ThreadMXBean threads =
        java.lang.management.ManagementFactory.getThreadMXBean();
    java.util.Map<String, java.util.function.IntSupplier> cases =
        new java.util.LinkedHashMap<>();
    cases.put("treeJson (before)", b::treeJson);
    cases.put("storedJson (after)", b::storedJson);
    for (int round = 0; round < 2; round++) {
      for (var c : cases.entrySet()) {
        double best = Double.MAX_VALUE;
        for (int r = 0; r < 5; r++) {
          long start = threads.getCurrentThreadCpuTime();
          for (int i = 0; i < 5 * COUNT; i++) {
            c.getValue().getAsInt();
          }
          best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / 1e3 / (5 * COUNT));
        }
        if (round == 1) {
          System.out.printf("%-20s best %.2f us/GET CPU%n", c.getKey(), best);
        }
      }
    }
    b.tearDown();
  }

  private int nextIndex() {
    int i = next;
    next = i + 1 == COUNT ? 0 : i + 1;
    return i;
  }

  @Benchmark
  public int httpGet() throws Exception {
    HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uris[nextIndex()]).GET()
        .build(), HttpResponse.BodyHandlers.ofByteArray());
    if (r.statusCode() != 200) {
      throw new IllegalStateException("get: " + r.statusCode());
    }
    return r.body().length;
  }

  /** The GET as the server answers it now: the stored bytes copied. */
  @Benchmark
  public int storedJson() {
    ApiResponse r = api.handle(gets[nextIndex()]);
    StoredObject stored = r.storedObject().orElseThrow();
    ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
    stored.writeJson(out, StoredObject.TypeMeta.KEEP);
    out.write('\n');
    return out.size();
  }

  /** The GET as the server answered it before: the object decoded, then encoded. */
  @Benchmark
  public int treeJson() {
    ApiResponse r = api.handle(gets[nextIndex()]);
    ByteArrayOutputStream out = new ByteArrayOutputStream(2048);
    Json.write(r.body(), out);
    out.write('\n');
    return out.size();
  }
}
