/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ResourceClient;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.junit.TestApiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
 * What {@code @ApiServerTest} costs per test method, warm: the reset between methods (the
 * lifecycle {@code RESET_PER_METHOD}: the baseline snapshot written back) of a server with
 * kube-apiserver's namespaces and 100 ConfigMaps loaded as class-level manifests, and a fresh
 * server per method (lifecycle {@code PER_METHOD}: start, namespaces, baseline, HTTP, close).
 * The baseline of the same run is {@code createAndDelete}: one create and one delete of a
 * ConfigMap, the smallest thing a test does.
 *
 * <ul>
 *   <li>{@code resetUnchanged}: a reset after a method that wrote nothing;
 *   <li>{@code resetAfterWrites}: a method's create of one ConfigMap and update of one of the
 *       100, then the reset that deletes the one and restores the other;
 *   <li>{@code freshServer}: a server started and closed, as each method of a
 *       {@code PER_METHOD} class does;
 *   <li>{@code resetControlledUnchanged} and {@code resetControlledAfterWrites}: the same resets
 *       of a server that also runs kube-controller-manager's default controllers
 *       ({@code controllers = "*"}), which a reset stops and starts again.
 * </ul>
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar TestServerResetBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TestServerResetBenchmark {
  private static final int OBJECTS = 100;

  /** A server whose baseline holds the bootstrap namespaces and 100 ConfigMaps. */
  @State(Scope.Benchmark)
  public static class Loaded {
    TestApiServer.Standalone server;
    ResourceClient configMaps;
    Path manifests;
    int counter;

    @Setup(Level.Trial)
    public void setUp() {
      manifests = writeManifests();
      server = start(manifests);
      configMaps = server.api().resources("v1", "configmaps").namespace("default");
    }

    TestApiServer.Standalone start(Path manifests) {
      return TestApiServer.start(manifests.toString());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
      server.close();
      Files.deleteIfExists(manifests);
    }
  }

  /** {@link Loaded} with kube-controller-manager's default controllers running. */
  @State(Scope.Benchmark)
  public static class Controlled extends Loaded {
    @Override
    TestApiServer.Standalone start(Path manifests) {
      return TestApiServer.startWithControllers(List.of("*"), manifests.toString());
    }
  }

  static Path writeManifests() {
    Path manifests;
    try {
      manifests = Files.createTempFile("reset-benchmark-", ".yaml");
      StringBuilder yaml = new StringBuilder();
      for (int i = 0; i < OBJECTS; i++) {
        yaml.append("""
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: cm-%d
              namespace: default
              labels: {app: bench}
            data:
              key: value-%d
            ---
            """.formatted(i, i));
      }
      Files.writeString(manifests, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return manifests;
  }

  @Benchmark
  public Loaded resetUnchanged(Loaded s) {
    s.server.reset();
    return s;
  }

  @Benchmark
  public Loaded resetAfterWrites(Loaded s) {
    int n = ++s.counter;
    s.configMaps.create(configMap("new-" + n, n));
    s.configMaps.update(configMap("cm-7", n));
    s.server.reset();
    return s;
  }

  @Benchmark
  public Loaded resetControlledUnchanged(Controlled s) {
    return resetUnchanged(s);
  }

  @Benchmark
  public Loaded resetControlledAfterWrites(Controlled s) {
    return resetAfterWrites(s);
  }

  @Benchmark
  public Loaded createAndDelete(Loaded s) {
    int n = ++s.counter;
    s.configMaps.create(configMap("new-" + n, n));
    s.configMaps.delete("new-" + n);
    return s;
  }

  @Benchmark
  public TestApiServer.Standalone freshServer() {
    TestApiServer.Standalone server = TestApiServer.start();
    server.close();
    return server;
  }

  static MapValue configMap(String name, int n) {
    return (MapValue) Json.read("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
        + "{\"name\":\"" + name + "\"},\"data\":{\"key\":\"value-" + n + "\"}}");
  }
}
