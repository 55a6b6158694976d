/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.fieldpath.FieldSet;
import io.apiserver4j.fieldpath.FieldsV1;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
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
 * FieldsV1 decoding and encoding, and set algebra, on field sets derived from the objects in
 * {@code ../shared/bench} (which carry no managedFields of their own; see
 * {@link BenchInputs#fieldSet}). Compare with {@link JacksonBaselineBenchmark} from the same run.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar FieldsV1Benchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FieldsV1Benchmark {
  @Param({"pod", "node", "endpoints", "prometheus-crd", "apiresourceimport-cr"})
  public String object;

  private String json;
  private byte[] jsonBytes;
  private FieldSet set;
  private FieldSet other;

  @Setup
  public void setUp() {
    set = BenchInputs.fieldSet(BenchInputs.object(object));
    other = BenchInputs.overlapping(set);
    json = FieldsV1.encode(set);
    jsonBytes = json.getBytes(StandardCharsets.UTF_8);
    if (!FieldsV1.decode(json).equals(set)) {
      throw new IllegalStateException("FieldsV1 round trip failed for " + object);
    }
  }

  @Benchmark
  public FieldSet decodeString() {
    return FieldsV1.decode(json);
  }

  @Benchmark
  public FieldSet decodeBytes() {
    return FieldsV1.decode(jsonBytes);
  }

  @Benchmark
  public String encode() {
    return FieldsV1.encode(set);
  }

  @Benchmark
  public byte[] encodeBytes() {
    return FieldsV1.encodeBytes(set);
  }

  @Benchmark
  public FieldSet union() {
    return set.union(other);
  }

  @Benchmark
  public FieldSet intersection() {
    return set.intersection(other);
  }

  @Benchmark
  public FieldSet difference() {
    return set.difference(other);
  }

  @Benchmark
  public FieldSet recursiveDifference() {
    return other.recursiveDifference(set);
  }

  @Benchmark
  public FieldSet leaves() {
    return set.leaves();
  }
}
