/*
 * Copyright The apiserver4j authors.
 * SPDX-License-Identifier: Apache-2.0
 */
package io.apiserver4j.benchmarks;

import io.apiserver4j.core.Json;
import io.apiserver4j.core.MapValue;
import io.apiserver4j.core.Value;
import io.apiserver4j.kubeapi.ProtobufCodec;
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
 * Kubernetes protobuf bodies ({@link ProtobufCodec}) against JSON of the same objects from
 * {@code ../shared/bench}, in the same run: {@code jsonRead}/{@code jsonWrite} are the baseline.
 *
 * <p>Run from the repository root:
 * {@code java -jar benchmarks/target/benchmarks.jar ProtobufCodecBenchmark -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProtobufCodecBenchmark {
  @Param({"pod", "node", "endpoints"})
  public String object;

  private final ProtobufCodec codec = ProtobufCodec.builtIn();
  private MapValue value;
  private byte[] protobuf;
  private byte[] json;

  @Setup
  public void setUp() {
    value = (MapValue) Json.read(Json.write(BenchInputs.object(object)));
    protobuf = codec.encode(value);
    json = Json.writeBytes(value);
  }

  @Benchmark
  public byte[] protobufEncode() {
    return codec.encode(value);
  }

  @Benchmark
  public MapValue protobufDecode() {
    return codec.decode(protobuf);
  }

  @Benchmark
  public byte[] jsonWrite() {
    return Json.writeBytes(value);
  }

  @Benchmark
  public Value jsonRead() {
    return Json.read(json);
  }
}
