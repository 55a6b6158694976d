/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiResponse;
import io.apiserver4j.apiserver.ApiServer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The first 1,000 server-side applies of a fresh JVM against the same JVM once warm: what a test
 * suite's first tests meet before the JIT has compiled the request path. It must run in a JVM of
 * its own (it is not a JMH benchmark: JMH's forks warm up before they measure, which is what this
 * measures). The workload is {@link PipelineBenchmark#applyTwoManagers}'s: two managers in turn
 * apply a Deployment, each changing an annotation it owns, on an in-memory {@link ApiServer} with
 * the bootstrap. It prints, for the first batch and for the best warm batch, applies per second of
 * wall time and of the applying thread's CPU time (steadier on a shared machine), and the
 * first-to-warm ratios.
 *
 * <p>Run from the repository root after {@code mvn -pl benchmarks -am package -DskipTests}:
 * {@code java -cp benchmarks/target/benchmarks.jar io.apiserver4j.benchmarks.FirstAppliesBenchmark
 * [batch=1000] [warmup applies=100000] [warm batches=10]}
 */
public final class FirstAppliesBenchmark {
  private FirstAppliesBenchmark() {}

  /** One measured batch: wall and CPU nanoseconds. */
  private record Batch(long wallNanos, long cpuNanos) {
    double perSecond(long nanos, int applies) {
      return applies * 1e9 / nanos;
    }
  }

  public static void main(String[] args) {
    int batch = args.length > 0 ? Integer.parseInt(args[0]) : 1_000;
    int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
    int warmBatches = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long serverStart = System.nanoTime();
    try (ApiServer server = ApiServer.builder().build()) {
      long serverNanos = System.nanoTime() - serverStart;
      Applier applier = new Applier(server, "nginx-cold");
      Batch first = run(applier, batch, threads);
      for (int i = 0; i < warmup; i++) {
        applier.apply();
      }
      Batch warm = null;
      for (int b = 0; b < warmBatches; b++) {
        Batch x = run(applier, batch, threads);
        if (warm == null || x.wallNanos() < warm.wallNanos()) {
          warm = x;
        }
      }
      System.out.printf("server built in %d ms (first request path not yet run)%n",
          serverNanos / 1_000_000);
      print("first " + batch, first, batch);
      print("warm (best of " + warmBatches + ")", warm, batch);
      System.out.printf("first/warm: wall %.2fx, CPU %.2fx slower%n",
          (double) first.wallNanos() / warm.wallNanos(),
          (double) first.cpuNanos() / warm.cpuNanos());
    }
  }

  private static void print(String label, Batch b, int applies) {
    System.out.printf("%-22s %8.0f applies/s wall (%d ms), %8.0f applies/s CPU (%d ms)%n", label,
        b.perSecond(b.wallNanos(), applies), b.wallNanos() / 1_000_000,
        b.perSecond(b.cpuNanos(), applies), b.cpuNanos() / 1_000_000);
  }

  private static Batch run(Applier applier, int applies, ThreadMXBean threads) {
    long cpu = threads.getCurrentThreadCpuTime();
    long wall = System.nanoTime();
    for (int i = 0; i < applies; i++) {
      applier.apply();
    }
    return new Batch(System.nanoTime() - wall, threads.getCurrentThreadCpuTime() - cpu);
  }

  /** Applies one Deployment by two managers in turn; the first apply creates it. */
  private static final class Applier {
    private final ApiServer server;
    private final String name;
    private int counter;

    Applier(ApiServer server, String name) {
      this.server = server;
      this.name = name;
    }

    void apply() {
      int n = ++counter;
      ApiResponse r = n % 2 == 0
          ? server.handle(PipelineBenchmark.apply(name, "autoscaler",
              PipelineBenchmark.SECOND_MANAGER.formatted(name, n)))
          : server.handle(PipelineBenchmark.apply(name, "kubectl",
              BenchInputs.deployment(name, "owner-a", n)));
      if (r.code() != 200 && r.code() != 201) {
        throw new IllegalStateException("apply " + n + " answered " + r.code() + ": " + r.body());
      }
    }
  }
}
