/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiServer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * How long an in-process server with every built-in resource takes to build and close, in a
 * warm JVM ({@code AverageTime}) and in a cold one ({@code -bm ss -f 10 -wi 0 -i 1}: the first
 * build of a fresh JVM).
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar StartupBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class StartupBenchmark {
  @Benchmark
  public int buildAndClose() {
    try (ApiServer server = ApiServer.builder().build()) {
      return server.registry().all().size();
    }
  }

  /** The same without kube's bootstrap objects and APIServices: what writing them costs. */
  @Benchmark
  public int buildAndCloseWithoutBootstrap() {
    try (ApiServer server = ApiServer.builder().bootstrap(false).build()) {
      return server.registry().all().size();
    }
  }
}
