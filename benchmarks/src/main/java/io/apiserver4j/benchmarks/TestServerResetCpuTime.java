/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.junit.TestApiServer;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@link TestServerResetBenchmark}'s operations in a loop, reported as the process's CPU time
 * (every thread: the controllers' workers and informers too) and wall time per operation over
 * the second half of the iterations: on a machine shared with other work the CPU time stays
 * comparable between two builds run one after the other. Not a JMH benchmark.
 *
 * <p>Operations: {@code createAndDelete}, {@code fresh}, {@code unchanged}, {@code afterWrites},
 * {@code controlledUnchanged}, {@code controlledAfterWrites} (the last two with
 * kube-controller-manager's default controllers). Run from the repository root:
 * {@code java -cp benchmarks/target/benchmarks.jar io.apiserver4j.benchmarks.TestServerResetCpuTime
 * controlledAfterWrites 200}
 */
public final class TestServerResetCpuTime {
  private TestServerResetCpuTime() {}

  private static int counter;

  /** Runs {@code args[0]} {@code args[1]} times and prints its cost per operation. */
  public static void main(String[] a) throws Exception {
    String op = a[0];
    int n = Integer.parseInt(a[1]);
    Path manifests = TestServerResetBenchmark.writeManifests();
    OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    TestApiServer.Standalone s = null;
    if (!op.equals("fresh")) {
      s = op.startsWith("controlled") ? TestApiServer.startWithControllers(List.of("*"),
          manifests.toString()) : TestApiServer.start(manifests.toString());
    }
    long cpu0 = 0;
    long wall0 = 0;
    for (int i = 0; i < n; i++) {
      if (i == n / 2) {
        cpu0 = os.getProcessCpuTime();
        wall0 = System.nanoTime();
      }
      switch (op) {
        case "fresh" -> TestApiServer.start().close();
        case "controlledUnchanged", "unchanged" -> s.reset();
        case "controlledAfterWrites", "afterWrites" -> {
          ResourceClient c = s.api().resources("v1", "configmaps").namespace("default");
          int k = ++counter;
          c.create(TestServerResetBenchmark.configMap("new-" + k, k));
          c.update(TestServerResetBenchmark.configMap("cm-7", k));
          s.reset();
        }
        case "createAndDelete" -> {
          ResourceClient c = s.api().resources("v1", "configmaps").namespace("default");
          int k = ++counter;
          c.create(TestServerResetBenchmark.configMap("new-" + k, k));
          c.delete("new-" + k);
        }
        default -> throw new IllegalArgumentException(op);
      }
    }
    long ops = n - n / 2;
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e6 / ops;
    double wall = (System.nanoTime() - wall0) / 1e6 / ops;
    System.out.printf("%s: cpu %.3f ms/op, wall %.3f ms/op%n", op, cpu, wall);
    if (s != null) {
      s.close();
    }
    Files.deleteIfExists(manifests);
  }
}
