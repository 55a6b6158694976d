/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.apiserver.ApiRequest;
import io.apiserver4j.apiserver.ApiRequest.Verb;
import io.apiserver4j.apiserver.ApiServer;
import io.apiserver4j.controllers.ControllerManager;
import io.apiserver4j.core.Json;
import io.apiserver4j.core.Meta;
import io.apiserver4j.core.MapValue;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The garbage collector keeping up with owner deletions over 100,000 objects (issue 25: 1,000
 * owner deletions per second): 10,000 owner ConfigMaps with 9 dependents each, all in one
 * namespace of an in-memory server. One operation deletes the next {@value #BATCH} owners
 * through the server (kube's default background propagation) and, with {@code gc=on}, waits
 * until kube-controller-manager's garbage collector has deleted their 9,000 dependents and is
 * idle; {@code gc=off} is the same deletes with no collector, the baseline of the same run. The
 * collector keeps up when an operation with {@code gc=on} takes at most one second.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar GarbageCollectorBenchmark -prof gc}.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@State(Scope.Benchmark)
public class GarbageCollectorBenchmark {
  /** Owners, each with {@value #DEPENDENTS} dependents: 100,000 objects in all. */
  static final int OWNERS = 10_000;
  static final int DEPENDENTS = 9;
  /** Owner deletions per operation. */
  static final int BATCH = 1_000;
  private static final Duration IDLE = Duration.ofMinutes(5);

  /** Whether the garbage collector runs. */
  @Param({"on", "off"})
  public String gc;

  ApiServer api;
  ControllerManager controllers;
  int next;

  @Setup(Level.Trial)
  public void setUp() {
    api = ApiServer.builder().build();
    api.handle(ApiRequest.builder(Verb.CREATE, StoreMemoryBenchmark.NAMESPACES).body(Json.read(
        "{\"metadata\":{\"name\":\"" + ConfigMapCorpus.NAMESPACE + "\"}}")).build()).orThrow();
    for (int o = 0; o < OWNERS; o++) {
      MapValue owner = create(ConfigMapCorpus.json(o * (DEPENDENTS + 1)));
      String ref = ",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\","
          + "\"name\":\"" + Meta.metaString(owner, "name") + "\",\"uid\":\""
          + Meta.metaString(owner, "uid") + "\"}]";
      for (int d = 1; d <= DEPENDENTS; d++) {
        create(ConfigMapCorpus.json(o * (DEPENDENTS + 1) + d)
            .replace("\"metadata\":{", "\"metadata\":{" + ref.substring(1) + ","));
      }
    }
    if (gc.equals("on")) {
      controllers = ControllerManager.builder(api).controllers("garbagecollector").start();
      if (!controllers.awaitIdle(IDLE)) {
        throw new IllegalStateException("the garbage collector did not settle");
      }
    }
  }

  private MapValue create(String json) {
    return api.handle(ApiRequest.builder(Verb.CREATE, StoreMemoryBenchmark.CONFIG_MAPS)
        .namespace(ConfigMapCorpus.NAMESPACE).body(Json.read(json)).build()).orThrow();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    if (controllers != null) {
      controllers.close();
    }
    api.close();
  }

  /** Deletes the next {@value #BATCH} owners; with the collector, waits for their dependents. */
  @Benchmark
  public int deleteOwners() {
    if (next + BATCH > OWNERS) {
      throw new IllegalStateException("more iterations than owners: raise OWNERS");
    }
    for (int i = 0; i < BATCH; i++, next++) {
      api.handle(ApiRequest.builder(Verb.DELETE, StoreMemoryBenchmark.CONFIG_MAPS)
          .namespace(ConfigMapCorpus.NAMESPACE)
          .name(ConfigMapCorpus.name(next * (DEPENDENTS + 1))).build()).orThrow();
    }
    if (controllers != null && !controllers.awaitIdle(IDLE)) {
      throw new IllegalStateException("the garbage collector did not catch up within " + IDLE);
    }
    return next;
  }
}
