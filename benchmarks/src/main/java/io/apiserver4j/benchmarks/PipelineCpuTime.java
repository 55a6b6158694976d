/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link PipelineBenchmark}'s operations on one thread, reported as the thread's CPU time per
 * operation: on a machine shared with other work, wall-clock throughput mostly measures the
 * other work, while the CPU time the operation itself takes stays comparable between two builds
 * run one after the other. Complements the JMH figures; it is not a JMH benchmark.
 *
 * <p>Run from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar io.apiserver4j.benchmarks.PipelineCpuTime
 * [operations] [rounds]}
 */
public final class PipelineCpuTime {
  private PipelineCpuTime() {}

  public static void main(String[] args) {
    int ops = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    PipelineBenchmark b = new PipelineBenchmark();
    // each case on a fresh server, as JMH runs each in its own fork
    Map<String, java.util.function.BiFunction<PipelineBenchmark.Server, PipelineBenchmark.Worker,
        Object>> cases = new LinkedHashMap<>();
    cases.put("applyTwoManagers", b::applyTwoManagers);
    cases.put("applyNoOp", b::applyNoOp);
    cases.put("update", b::update);
    cases.put("mergePatch", b::mergePatch);
    cases.put("createAndDelete", b::createAndDelete);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (var c : cases.entrySet()) {
      PipelineBenchmark.Server s = new PipelineBenchmark.Server();
      s.setUp();
      PipelineBenchmark.Worker w = new PipelineBenchmark.Worker();
      w.setUp(s);
      for (int i = 0; i < ops; i++) {
        c.getValue().apply(s, w);
      }
      double best = Double.MAX_VALUE;
      StringBuilder all = new StringBuilder();
      for (int r = 0; r < rounds; r++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < ops; i++) {
          c.getValue().apply(s, w);
        }
        double micros = (threads.getCurrentThreadCpuTime() - start) / 1e3 / ops;
        best = Math.min(best, micros);
        all.append(String.format(" %.1f", micros));
      }
      System.out.printf("%-17s best %.1f us/op CPU (rounds:%s)%n", c.getKey(), best, all);
      s.tearDown();
    }
  }
}
