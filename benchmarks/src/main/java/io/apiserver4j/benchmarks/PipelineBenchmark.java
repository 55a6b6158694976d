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
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole in-process request pipeline of {@link ApiServer} over the in-memory store, on a
 * Deployment (the nginx Deployment of the server-side apply documentation):
 *
 * <ul>
 *   <li>{@code applyTwoManagers}: server-side apply by two managers in turn, each changing a
 *       field it owns (an annotation), so every apply merges, tracks ownership, checks
 *       conflicts, validates and writes;
 *   <li>{@code applyNoOp}: the same applied configuration again (merge, compare, no write);
 *   <li>{@code createAndDelete}: a create by apply of a new Deployment and its delete;
 *   <li>{@code update}: PUT of the Deployment with one changed annotation;
 *   <li>{@code mergePatch}: a JSON merge patch changing one annotation.
 * </ul>
 *
 * Each benchmark thread works on its own Deployment, so that threads do not conflict.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar PipelineBenchmark -prof gc}
 * (add {@code -t 2} for two threads).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PipelineBenchmark {
  static final GroupVersionResource DEPLOYMENTS =
      new GroupVersionResource("apps", "v1", "deployments");


  static final String SECOND_MANAGER = """
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: %s
        annotations:
          owner-b: "%d"
      spec:
        template:
          spec:
            containers:
            - name: nginx
              resources:
                limits: {cpu: 500m}
      """;

  /** One server for all threads. */
  @State(Scope.Benchmark)
  public static class Server {
    ApiServer server;
    final AtomicInteger threads = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() {
      server = ApiServer.builder().build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      server.close();
    }
  }

  /** A thread's own Deployment and counters. */
  @State(Scope.Thread)
  public static class Worker {
    String name;
    int counter;
    boolean second;
    MapValue current;

    @Setup(Level.Trial)
    public void setUp(Server s) {
      name = "nginx-" + s.threads.incrementAndGet();
      ApiResponse r =
          s.server.handle(apply(name, "kubectl", BenchInputs.deployment(name, "owner-a", 0)));
      current = r.orThrow();
    }
  }

  static ApiRequest apply(String name, String manager, String yaml) {
    return ApiRequest.builder(Verb.PATCH, DEPLOYMENTS).namespace("default").name(name)
        .fieldManager(manager).patch(PatchType.APPLY_YAML, yaml).build();
  }

  @Benchmark
  public ApiResponse applyTwoManagers(Server s, Worker w) {
    int n = ++w.counter;
    w.second = !w.second;
    ApiResponse r = w.second
        ? s.server.handle(apply(w.name, "autoscaler", SECOND_MANAGER.formatted(w.name, n)))
        : s.server.handle(apply(w.name, "kubectl", BenchInputs.deployment(w.name, "owner-a", n)));
    if (r.code() != 200) {
      throw new IllegalStateException(r.body().toString());
    }
    return r;
  }

  @Benchmark
  public ApiResponse applyNoOp(Server s, Worker w) {
    return s.server.handle(apply(w.name, "kubectl", BenchInputs.deployment(w.name, "owner-a", 0)));
  }

  @Benchmark
  public ApiResponse createAndDelete(Server s, Worker w) {
    String name = w.name + "-tmp";
    ApiResponse created =
        s.server.handle(apply(name, "kubectl", BenchInputs.deployment(name, "owner-a", 0)));
    if (created.code() != 201) {
      throw new IllegalStateException(created.body().toString());
    }
    return s.server.handle(ApiRequest.builder(Verb.DELETE, DEPLOYMENTS).namespace("default")
        .name(name).build());
  }

  @Benchmark
  public ApiResponse update(Server s, Worker w) {
    MapValue meta = (MapValue) w.current.getOrNull("metadata");
    MapValue annotations = (MapValue) meta.getOrNull("annotations");
    MapValue next = w.current.with("metadata", meta.with("annotations",
        annotations.with("owner-u", Value.of(Integer.toString(++w.counter)))));
    ApiResponse r = s.server.handle(ApiRequest.builder(Verb.UPDATE, DEPLOYMENTS)
        .namespace("default").name(w.name).fieldManager("editor").body(next).build());
    w.current = r.orThrow();
    return r;
  }

  @Benchmark
  public ApiResponse mergePatch(Server s, Worker w) {
    return s.server.handle(ApiRequest.builder(Verb.PATCH, DEPLOYMENTS).namespace("default")
        .name(w.name).fieldManager("patcher").patch(PatchType.MERGE_PATCH,
            "{\"metadata\":{\"annotations\":{\"owner-p\":\"" + (++w.counter) + "\"}}}").build());
  }
}
