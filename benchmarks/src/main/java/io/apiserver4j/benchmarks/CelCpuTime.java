/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The operations of {@link CrdValidationBenchmark} and {@link ValidatingAdmissionPolicyBenchmark}
 * on one thread, reported as the thread's CPU time per operation and as ratios against their
 * baselines (a Jackson parse; the request without policies), measured in the same process. On a
 * machine shared with other work the wall-clock JMH figures mostly measure the other work; the
 * CPU time an operation takes stays comparable. Complements the JMH figures; it is not a JMH
 * benchmark.
 *
 * <p>Run from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar io.apiserver4j.benchmarks.CelCpuTime
 * [operations] [rounds]}
 */
public final class CelCpuTime {
  private CelCpuTime() {}

  public static void main(String[] args) {
    int ops = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    CrdValidationBenchmark crd = new CrdValidationBenchmark();
    crd.setUp();
    ValidatingAdmissionPolicyBenchmark none = new ValidatingAdmissionPolicyBenchmark();
    none.policies = 0;
    none.setUp();
    ValidatingAdmissionPolicyBenchmark ten = new ValidatingAdmissionPolicyBenchmark();
    ten.policies = 10;
    ten.setUp();
    Map<String, Supplier<Object>> cases = new LinkedHashMap<>();
    cases.put("crd.jacksonParse", () -> {
      try {
        return crd.jacksonParse();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    cases.put("crd.validateCreate", crd::validateCreate);
    cases.put("crd.validateUpdate", crd::validateUpdate);
    cases.put("vap.createAndDelete(0)", none::createAndDelete);
    cases.put("vap.createAndDelete(10)", ten::createAndDelete);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<String, Double> best = new LinkedHashMap<>();
    for (var c : cases.entrySet()) {
      for (int i = 0; i < ops; i++) {
        c.getValue().get();
      }
      double min = Double.MAX_VALUE;
      StringBuilder all = new StringBuilder();
      for (int r = 0; r < rounds; r++) {
        long start = threads.getCurrentThreadCpuTime();
        for (int i = 0; i < ops; i++) {
          c.getValue().get();
        }
        double micros = (threads.getCurrentThreadCpuTime() - start) / 1e3 / ops;
        min = Math.min(min, micros);
        all.append(String.format(" %.2f", micros));
      }
      best.put(c.getKey(), min);
      System.out.printf("%-25s best %.2f us/op CPU (rounds:%s)%n", c.getKey(), min, all);
    }
    System.out.printf("crd create / jackson  %.2fx%n",
        best.get("crd.validateCreate") / best.get("crd.jacksonParse"));
    System.out.printf("crd update / jackson  %.2fx%n",
        best.get("crd.validateUpdate") / best.get("crd.jacksonParse"));
    System.out.printf("vap 10 / 0            %.2fx%n",
        best.get("vap.createAndDelete(10)") / best.get("vap.createAndDelete(0)"));
    none.tearDown();
    ten.tearDown();
  }
}
