/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.kubeapi.KubeVersion;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * Building and closing a server of an older release ({@code --emulated-version}) against the
 * newest, in one run: issue 27 asks that an older release cost at most 1.2x the 1.36 build. As
 * {@link StartupBenchmark}, warm ({@code AverageTime}) or cold ({@code -bm ss -f 10 -wi 0 -i 1}:
 * the first build of a fresh JVM, which also reads the release's data from the jar).
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar EmulatedVersionStartupBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@State(Scope.Benchmark)
public class EmulatedVersionStartupBenchmark {
  /** The release served, as {@code --emulated-version} takes it. */
  @Param({"1.33", "1.36"})
  public String version;

  @Benchmark
  public int buildAndClose() {
    try (ApiServer server = ApiServer.builder().emulatedVersion(KubeVersion.parse(version))
        .build()) {
      return server.registry().all().size();
    }
  }
}
