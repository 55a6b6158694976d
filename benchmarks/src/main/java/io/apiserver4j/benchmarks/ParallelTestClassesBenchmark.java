/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.junit.ApiServerTest;
import io.apiserver4j.junit.TestApiServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@code @ApiServerTest} classes run by JUnit's launcher in one JVM, one after another and with
 * JUnit's parallel execution ({@code junit.jupiter.execution.parallel.enabled}, classes
 * concurrent, methods of a class on its thread): eight classes of five tests each, every class
 * with its own server (kube's namespaces, reset between its tests), every test creating, reading
 * and listing ConfigMaps. The score is the time of the eight classes; classes/s is 8 divided by
 * it.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar ParallelTestClassesBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@State(Scope.Benchmark)
public class ParallelTestClassesBenchmark {
  /** The JUnit threads: 1 runs the classes one after another, more runs them in parallel. */
  @Param({"1", "2", "4"})
  public int threads;

  private Launcher launcher;
  private LauncherDiscoveryRequest request;

  /** A class of the suite: five tests on its own server. */
  abstract static class Fixture {
    @RepeatedTest(5)
    void createsReadsAndLists(TestApiServer server) {
      ResourceClient configMaps = server.resources("v1", "configmaps").namespace("default");
      configMaps.create(TestServerResetBenchmark.configMap("mine", 1));
      configMaps.get("mine");
      if (configMaps.list().size() != 1) {
        throw new AssertionError("a server shared between classes");
      }
    }
  }

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C1 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C2 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C3 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C4 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C5 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C6 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C7 extends Fixture {}

  /** A class of the suite. */
  @ApiServerTest(lifecycle = ApiServerTest.Lifecycle.RESET_PER_METHOD)
  public static class C8 extends Fixture {}

  /** Builds the launcher and the request of the eight classes with this run's threads. */
  @Setup
  public void setUp() {
    launcher = LauncherFactory.create();
    List<DiscoverySelector> classes = new ArrayList<>();
    for (Class<?> c : List.of(C1.class, C2.class, C3.class, C4.class, C5.class, C6.class,
        C7.class, C8.class)) {
      classes.add(selectClass(c));
    }
    request = LauncherDiscoveryRequestBuilder.request().selectors(classes)
        .configurationParameters(threads == 1 ? Map.of() : Map.of(
            "junit.jupiter.execution.parallel.enabled", "true",
            "junit.jupiter.execution.parallel.mode.default", "same_thread",
            "junit.jupiter.execution.parallel.mode.classes.default", "concurrent",
            "junit.jupiter.execution.parallel.config.strategy", "fixed",
            "junit.jupiter.execution.parallel.config.fixed.parallelism",
            Integer.toString(threads)))
        .build();
  }

  /** Runs the eight classes; fails if a test failed. */
  @Benchmark
  public TestExecutionSummary eightClasses() {
    SummaryGeneratingListener listener = new SummaryGeneratingListener();
    launcher.execute(request, listener);
    TestExecutionSummary summary = listener.getSummary();
    if (summary.getTotalFailureCount() > 0 || summary.getTestsSucceededCount() != 40) {
      summary.getFailures().forEach(f -> f.getException().printStackTrace());
      throw new IllegalStateException(summary.getTotalFailureCount() + " failures, "
          + summary.getTestsSucceededCount() + " of 40 tests succeeded");
    }
    return summary;
  }
}
